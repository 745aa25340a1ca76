//! Pruning: the syntax tree cut down to its live nodes. Each item, member and `use` leaf is
//! judged by the node at its place (module, item index, member index or `use` leaf position),
//! so no walk has to meet the nodes in the order the graph was built.

use syn::{Item, UseTree};

use super::graph::{Graph, Kind, ModId, NodeSet, Part, Place};

/// Removes from `items`, the bundle `graph` was built from, every node not in `live`.
pub(super) fn keep_live(items: &mut Vec<Item>, graph: &Graph, live: &NodeSet) {
    Pruner { graph, live }.module(ModId::ROOT, items);
}

struct Pruner<'a> {
    graph: &'a Graph,
    live: &'a NodeSet,
}

impl Pruner<'_> {
    /// Whether the node at `place` stays (a place the graph does not know, which cannot be,
    /// stays: keeping is always sound).
    fn is_live(&self, place: &Place) -> bool {
        self.graph
            .at(place)
            .is_none_or(|node| self.live.contains(node))
    }

    /// Prunes the items of `module`.
    fn module(&self, module: ModId, items: &mut Vec<Item>) {
        let keep: Vec<bool> = items
            .iter_mut()
            .enumerate()
            .map(|(k, item)| self.item(&Place::item(module, k), item))
            .collect();
        let mut keep = keep.into_iter();
        items.retain(|_| keep.next().unwrap_or(true));
    }

    /// Prunes the item at `place` inside; whether it stays.
    fn item(&self, place: &Place, item: &mut Item) -> bool {
        match item {
            Item::Mod(m) => {
                let Some(node) = self.graph.at(place) else {
                    return true;
                };
                if let (Kind::Mod { module }, Some((_, inner))) =
                    (&self.graph[node].kind, &mut m.content)
                {
                    self.module(*module, inner);
                }
                // A live module stays even when little is left in it: a glob or a path may
                // name it.
                self.live.contains(node)
            }
            Item::Use(u) => self.use_tree(place, &mut u.tree, &mut Vec::new()),
            Item::Impl(imp) => {
                self.members(place, &mut imp.items);
                // A trait impl may be empty (a marker trait, or every method provided).
                self.is_live(place) && (imp.trait_.is_some() || !imp.items.is_empty())
            }
            Item::Trait(t) => {
                self.members(place, &mut t.items);
                self.is_live(place)
            }
            _ => self.is_live(place),
        }
    }

    /// Keeps the live members of the impl or trait at `place`.
    fn members<T>(&self, place: &Place, members: &mut Vec<T>) {
        let keep: Vec<bool> = (0..members.len())
            .map(|k| self.is_live(&place.part(Part::Member(k))))
            .collect();
        let mut keep = keep.into_iter();
        members.retain(|_| keep.next().unwrap_or(true));
    }

    /// Prunes `tree`, reached by the group indices `leaf` in the `use` item at `place`; whether
    /// anything of it stays.
    fn use_tree(&self, place: &Place, tree: &mut UseTree, leaf: &mut Vec<usize>) -> bool {
        match tree {
            UseTree::Path(p) => self.use_tree(place, &mut p.tree, leaf),
            UseTree::Name(_) | UseTree::Rename(_) | UseTree::Glob(_) => {
                self.is_live(&place.part(Part::UseLeaf(leaf.clone())))
            }
            UseTree::Group(g) => {
                let old = std::mem::take(&mut g.items);
                for (k, mut t) in old.into_iter().enumerate() {
                    leaf.push(k);
                    let keep = self.use_tree(place, &mut t, leaf);
                    leaf.pop();
                    if keep {
                        g.items.push(t);
                    }
                }
                !g.items.is_empty()
            }
        }
    }
}
