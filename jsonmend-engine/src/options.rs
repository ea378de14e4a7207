//! Profiles and the options every one-shot call takes (spec §7, §2.2).

use alloc::vec::Vec;

use crate::error::{Error, ErrorCode};
use crate::rules::Rule;

/// A repair profile (spec §7).
///
/// ```
/// use jsonmend_engine::{repair, Options, Profile};
/// let fixable = "{a: 1}";
/// assert!(repair(fixable, &Options::with_profile(Profile::Strict)).is_err());
/// assert_eq!(repair(fixable, &Options::with_profile(Profile::Execution)).unwrap().text, "{\"a\": 1}");
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Profile {
    /// No repair at all: any change is `E012`.
    Strict,
    /// Cosmetic repairs only, nothing ambiguous: the gate for tool arguments.
    Execution,
    /// Every repair accepted; schema failures refused.
    #[default]
    Default,
    /// Everything accepted, coercion on, prose kept as a string.
    Lenient,
}

impl Profile {
    /// Parses a profile name; an unknown name is `E050`.
    ///
    /// ```
    /// use jsonmend_engine::Profile;
    /// assert_eq!(Profile::parse("execution").unwrap(), Profile::Execution);
    /// assert!(Profile::parse("loose").is_err());
    /// ```
    pub fn parse(name: &str) -> Result<Profile, Error> {
        match name {
            "strict" => Ok(Profile::Strict),
            "execution" => Ok(Profile::Execution),
            "default" => Ok(Profile::Default),
            "lenient" => Ok(Profile::Lenient),
            other => Err(Error::new(
                ErrorCode::E050,
                alloc::format!("unknown profile {}", crate::json::quoted(other)),
            )),
        }
    }

    /// The profile's name.
    ///
    /// ```
    /// assert_eq!(jsonmend_engine::Profile::Lenient.as_str(), "lenient");
    /// ```
    pub fn as_str(self) -> &'static str {
        match self {
            Profile::Strict => "strict",
            Profile::Execution => "execution",
            Profile::Default => "default",
            Profile::Lenient => "lenient",
        }
    }

    /// The `max_loss` default of the profile.
    ///
    /// ```
    /// use jsonmend_engine::Profile;
    /// assert_eq!((Profile::Execution.default_max_loss(), Profile::Default.default_max_loss()), (0, 1000));
    /// ```
    pub fn default_max_loss(self) -> u32 {
        match self {
            Profile::Strict | Profile::Execution => 0,
            Profile::Default | Profile::Lenient => 1000,
        }
    }
}

/// Options of the one-shot calls (spec §1, §2.2, §7).
///
/// ```
/// use jsonmend_engine::{repair, ErrorCode, Options, Rule};
/// let opts = Options { deny: vec![Rule::SingleQuotes], max_depth: 8, ..Options::default() };
/// assert_eq!(repair("['a']", &opts).unwrap_err().code, ErrorCode::E012);
/// assert_eq!(repair("[[[[[[[[[1]]]]]]]]]", &opts).unwrap_err().code, ErrorCode::E040);
/// ```
#[derive(Clone, Debug)]
pub struct Options {
    /// The profile (default `default`).
    pub profile: Profile,
    /// Skip prose, fences and markup around the JSON (default `true`).
    pub skip_prose: bool,
    /// Maximum loss in permille; `None` takes the profile's default.
    pub max_loss: Option<u32>,
    /// Nesting limit (`E040`), default 1024.
    pub max_depth: usize,
    /// Input size limit in bytes (`E041`), default 256 MiB.
    pub max_input: usize,
    /// How many repairs are listed (default 1000; more set `repairs_truncated`).
    pub max_repairs: usize,
    /// Rules refused with `E012` under any profile.
    pub deny: Vec<Rule>,
    /// A schema declaration (`E021` when not satisfied, except `lenient`).
    pub schema: Option<crate::Schema>,
    /// Test hook: `true` turns the engine's fast lane off, so tests can
    /// check it changes nothing. Not part of the API.
    #[doc(hidden)]
    pub general_path_only: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            profile: Profile::Default,
            skip_prose: true,
            max_loss: None,
            max_depth: 1024,
            max_input: 268_435_456,
            max_repairs: 1000,
            deny: Vec::new(),
            schema: None,
            general_path_only: false,
        }
    }
}

impl Options {
    /// Default options under `profile`.
    ///
    /// ```
    /// use jsonmend_engine::{Options, Profile};
    /// let opts = Options::with_profile(Profile::Execution);
    /// assert_eq!(opts.effective_max_loss(), 0);
    /// ```
    pub fn with_profile(profile: Profile) -> Options {
        Options {
            profile,
            ..Options::default()
        }
    }

    /// `max_loss`, or the profile's default.
    ///
    /// ```
    /// use jsonmend_engine::Options;
    /// assert_eq!(Options { max_loss: Some(50), ..Options::default() }.effective_max_loss(), 50);
    /// ```
    pub fn effective_max_loss(&self) -> u32 {
        self.max_loss
            .unwrap_or_else(|| self.profile.default_max_loss())
    }
}
