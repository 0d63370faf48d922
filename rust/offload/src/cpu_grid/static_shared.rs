//! The x86_64 image's static shared arrays (`offload::shared_array!`): one
//! zeroed allocation per declaration site per launch, made by the first of
//! the team's threads to reach the declaration and found by the others.
//! The teams run one after another, so the launch's teams reuse it (GPUs
//! give a team's static shared memory no initial value either). Arrays are
//! limited only by memory (the declaration's compile-time limit,
//! offload-contract's `STATIC_SHARED_ARRAY_MAX`, keeps programs within
//! what GPUs take).

use core::ptr::null_mut;
use core::sync::atomic::AtomicPtr;
use core::sync::atomic::Ordering::{AcqRel, Acquire};

use super::ffi::{self, CArray};

/// One site's array: a push-only list, freed with the launch.
struct Node {
    site: usize,
    base: *mut u8,
    /// Owns the array's bytes (`base` is in it, aligned).
    _memory: CArray<u8>,
    next: *mut Node,
}

/// The launch's static shared arrays, by site.
pub(super) struct StaticArrays {
    head: AtomicPtr<Node>,
}

impl Default for StaticArrays {
    fn default() -> Self {
        StaticArrays {
            head: AtomicPtr::new(null_mut()),
        }
    }
}

/// The array of `site` in the nodes from `node` up to (not including)
/// `end`.
fn find(mut node: *mut Node, end: *mut Node, site: usize) -> Option<*mut u8> {
    while node != end {
        // SAFETY: nodes in the list are live until the launch drops them
        // and are not changed after they were published.
        let n = unsafe { &*node };
        if n.site == site {
            return Some(n.base);
        }
        node = n.next;
    }
    None
}

impl StaticArrays {
    /// The array of declaration `site`: `bytes` bytes aligned to `align` (a
    /// power of two), the same for every thread of the launch.
    pub fn get(&self, site: usize, bytes: usize, align: usize) -> *mut u8 {
        let mut head = self.head.load(Acquire);
        if let Some(base) = find(head, null_mut(), site) {
            return base;
        }
        let node = new_node(site, bytes, align);
        loop {
            // SAFETY: `node` is ours until published.
            unsafe { (*node).next = head };
            match self.head.compare_exchange(head, node, AcqRel, Acquire) {
                Ok(_) => {
                    // SAFETY: published, no longer changed.
                    return unsafe { (*node).base };
                }
                Err(newer) => {
                    // Another thread pushed: its node may be this site's.
                    if let Some(base) = find(newer, head, site) {
                        drop_node(node);
                        return base;
                    }
                    head = newer;
                }
            }
        }
    }
}

fn new_node(site: usize, bytes: usize, align: usize) -> *mut Node {
    // SAFETY: zeroed bytes are valid bytes.
    let memory: CArray<u8> = unsafe { CArray::zeroed(bytes.saturating_add(align - 1)) };
    let base = memory.as_ptr();
    let base = base.wrapping_add(base.align_offset(align));
    // SAFETY: calloc'd memory for one `Node`, aligned for any type.
    let node = unsafe { ffi::calloc(1, size_of::<Node>()) }.cast::<Node>();
    if node.is_null() {
        ffi::fatal(format_args!(
            "offload: out of memory for a static shared array"
        ));
    }
    let record = Node {
        site,
        base,
        _memory: memory,
        next: null_mut(),
    };
    // SAFETY: `node` is valid for a write of one `Node`.
    unsafe { node.write(record) };
    node
}

fn drop_node(node: *mut Node) {
    // SAFETY: a node of `new_node`, dropped (its memory freed) once.
    unsafe {
        node.drop_in_place();
        ffi::free(node.cast());
    }
}

impl Drop for StaticArrays {
    fn drop(&mut self) {
        let mut node = *self.head.get_mut();
        while !node.is_null() {
            // SAFETY: every thread of the launch has finished; each node is
            // dropped once.
            let next = unsafe { (*node).next };
            drop_node(node);
            node = next;
        }
    }
}
