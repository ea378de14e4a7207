//! The deterministic work counter of spec §19. With the `work-counter`
//! feature every input byte the engine examines (through its readers and
//! its scans) and every output byte it writes or takes back counts one
//! unit; without it the counter is zero-sized and every call vanishes.
//! `tests/work_counter.rs` bounds it by `8·n + 4096` on each adversarial
//! family at 1 MB.

#[cfg(feature = "work-counter")]
#[derive(Clone, Debug)]
pub(crate) struct Work(core::cell::Cell<usize>);

#[cfg(feature = "work-counter")]
impl Work {
    pub(crate) const fn new() -> Work {
        Work(core::cell::Cell::new(0))
    }

    #[inline]
    pub(crate) fn add(&self, units: usize) {
        self.0.set(self.0.get().saturating_add(units));
    }

    pub(crate) fn get(&self) -> usize {
        self.0.get()
    }
}

#[cfg(not(feature = "work-counter"))]
#[derive(Clone, Debug)]
pub(crate) struct Work;

#[cfg(not(feature = "work-counter"))]
impl Work {
    pub(crate) const fn new() -> Work {
        Work
    }

    #[inline(always)]
    pub(crate) fn add(&self, _units: usize) {}
}
