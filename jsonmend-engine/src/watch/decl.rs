//! A declaration laid out for a watch stream: every object, array and
//! union of the schema gets an id, so open containers refer to their
//! declared type by number instead of holding copies of it.

use alloc::string::String;
use alloc::vec::Vec;

use crate::schema::Ty;

#[derive(Clone)]
struct Node {
    ty: Ty,
    /// Declared members: name, required, node.
    fields: Vec<(String, bool, usize)>,
    /// The declared item type.
    item: Option<usize>,
    /// Union alternatives.
    alts: Vec<usize>,
}

/// The declared types of a schema.
#[derive(Clone)]
pub(crate) struct Decls {
    nodes: Vec<Node>,
}

impl Decls {
    /// Lays out `root` (node 0); declarations are at most 64 levels deep.
    pub(crate) fn new(root: &Ty) -> Decls {
        let mut d = Decls { nodes: Vec::new() };
        d.add(root);
        d
    }

    fn add(&mut self, ty: &Ty) -> usize {
        let id = self.nodes.len();
        self.nodes.push(Node {
            ty: ty.clone(),
            fields: Vec::new(),
            item: None,
            alts: Vec::new(),
        });
        match ty {
            Ty::Object(fields) => {
                for f in fields {
                    let child = self.add(&f.ty);
                    if let Some(n) = self.nodes.get_mut(id) {
                        n.fields.push((f.name.clone(), f.required, child));
                    }
                }
            }
            Ty::Array(Some(item)) => {
                let child = self.add(item);
                if let Some(n) = self.nodes.get_mut(id) {
                    n.item = Some(child);
                }
            }
            Ty::Union(alts) => {
                for a in alts {
                    let child = self.add(a);
                    if let Some(n) = self.nodes.get_mut(id) {
                        n.alts.push(child);
                    }
                }
            }
            _ => {}
        }
        id
    }

    pub(crate) fn ty(&self, id: usize) -> Option<&Ty> {
        self.nodes.get(id).map(|n| &n.ty)
    }

    /// The declaration a container of this kind follows: the node itself,
    /// or the union's first alternative of that kind.
    pub(crate) fn container(&self, id: usize, object: bool) -> Option<usize> {
        let n = self.nodes.get(id)?;
        let fits = |t: &Ty| {
            if object {
                matches!(t, Ty::Object(_))
            } else {
                matches!(t, Ty::Array(_))
            }
        };
        if fits(&n.ty) {
            return Some(id);
        }
        n.alts
            .iter()
            .copied()
            .find(|&a| self.nodes.get(a).is_some_and(|x| fits(&x.ty)))
    }

    /// The declared member `name` of an object node: its node and whether
    /// it is required.
    pub(crate) fn field(&self, id: usize, name: &str) -> Option<(usize, bool)> {
        self.nodes
            .get(id)?
            .fields
            .iter()
            .find(|f| f.0 == name)
            .map(|f| (f.2, f.1))
    }

    /// The declared item of an array node.
    pub(crate) fn item(&self, id: usize) -> Option<usize> {
        self.nodes.get(id)?.item
    }

    /// How many members of an object node are required.
    pub(crate) fn required(&self, id: usize) -> usize {
        self.nodes
            .get(id)
            .map_or(0, |n| n.fields.iter().filter(|f| f.1).count())
    }
}
