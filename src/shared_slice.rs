//! [`SharedSlice`]: a reference-counted slice in one allocation behind one
//! thin pointer, copied on write, the storage of [`crate::List`];
//! [`SharedStr`], such a slice of UTF-8, the storage of a long
//! [`crate::Str`]; and [`SliceOrBox`], one pointer to either such a slice
//! or a shared box, the storage of [`crate::Map`] (a small map's entries,
//! or a growable map with its hash index).
//!
//! With `src/ffi`, the one place of `unsafe` code (the layouts below):
//! every other module uses these types' safe interfaces.
//!
//! The allocation is an 8-byte [`Header`] (a 32-bit reference count and the
//! length) followed by the elements. Where an Array or a Hash was a
//! `triomphe::Arc` (8-byte count) of a boxed slice (16 bytes), 24 bytes in
//! one allocation and the elements in another, it is now the elements and 8
//! bytes in one: issue 18, 16 bytes and one allocation less per container
//! of the file cache. An empty slice is no allocation at all.
//!
//! The count is 32 bits. A count that reaches [`IMMORTAL`] (2^31 live
//! references, 32 GiB of values pointing at one slice) stays there: the
//! slice is then never freed, where a count that wrapped would free it
//! while in use, and where `Arc` would abort the host.
//!
//! [`Header`] is also the first field of a [`SliceOrBox`]'s box: a header
//! whose length is [`NOT_A_SLICE`] starts a box, so that the one pointer
//! says which of the two it points at.
//!
//! A slice may carry a tail of `u16`s after its elements, in the same
//! allocation (a frozen [`crate::Map`]'s hash index): the length's top bit
//! ([`TAILED`]) says so, and the tail's own length, a `u32`, follows the
//! elements. The tail is copied with the elements, never changed.

use std::alloc::{alloc, dealloc, handle_alloc_error, Layout};
use std::marker::PhantomData;
use std::ptr::NonNull;
use std::sync::atomic::{fence, AtomicU32, Ordering};

/// A count at or past this is sticky: the allocation is never freed.
const IMMORTAL: u32 = 1 << 31;

/// The length a [`Header`] has when it starts an allocation that is not a
/// slice (see the module documentation).
const NOT_A_SLICE: u32 = u32::MAX;

/// The bit of a slice's [`Header`] length that says a tail follows the
/// elements (see the module documentation).
const TAILED: u32 = 1 << 31;

/// The [`Header`] length of a slice of `n` elements, with or without a
/// tail: below [`TAILED`] (the bit is the tail's), and below `TAILED - 1`
/// with one (`TAILED | len` must not be [`NOT_A_SLICE`], a box's mark).
/// Longer slices (2 GiB of a String, 2^31 elements) are refused with a
/// panic, which the C ABI's guard turns into `HIERA_PANIC`; a data file is
/// at most `MAX_FILE_SIZE` (256 MiB).
fn header_len(n: usize, tailed: bool) -> u32 {
    let limit = if tailed { TAILED - 1 } else { TAILED };
    let len = u32::try_from(n)
        .ok()
        .filter(|&len| len < limit)
        .expect("a String, Array or Hash of fewer than 2^31 bytes or elements");
    if tailed {
        len | TAILED
    } else {
        len
    }
}

/// The start of a shared allocation: its reference count and the number
/// of elements that follow.
#[repr(C)]
pub(crate) struct Header {
    count: AtomicU32,
    len: u32,
}

impl Header {
    /// The header of a new allocation, referred to once.
    const fn new(len: u32) -> Header {
        Header {
            count: AtomicU32::new(1),
            len,
        }
    }

    /// The length (or [`NOT_A_SLICE`]).
    #[inline]
    fn len(&self) -> u32 {
        self.len
    }

    /// One reference more.
    #[inline]
    fn retain(&self) {
        // Relaxed, as `Arc::clone`: a new reference is made from an
        // existing one, which keeps the allocation alive meanwhile.
        let old = self.count.fetch_add(1, Ordering::Relaxed);
        if old >= IMMORTAL {
            self.count.store(IMMORTAL, Ordering::Relaxed);
        }
    }

    /// One reference less; `true` when it was the last (the caller then
    /// drops the elements and frees the allocation).
    #[inline]
    fn release(&self) -> bool {
        // One compare-and-swap, so that a count that reached IMMORTAL
        // between a check and a decrement is not counted down (a separate
        // load and `fetch_sub` could leave it one below the references).
        let mut count = self.count.load(Ordering::Relaxed);
        loop {
            if count >= IMMORTAL {
                return false;
            }
            match self.count.compare_exchange_weak(
                count,
                count - 1,
                Ordering::Release,
                Ordering::Relaxed,
            ) {
                Ok(_) => break,
                Err(now) => count = now,
            }
        }
        if count != 1 {
            return false;
        }
        // As `Arc::drop`: every other reference's uses happen before the
        // elements are dropped.
        fence(Ordering::Acquire);
        true
    }

    /// Whether this is the only reference (its holder may change the
    /// elements in place).
    #[inline]
    fn is_unique(&self) -> bool {
        // Acquire, as `Arc::get_mut`: other references' uses, now dropped,
        // happen before the holder's changes.
        self.count.load(Ordering::Acquire) == 1
    }

    /// The number of references (for tests and for interners that drop
    /// what only they hold).
    fn count(&self) -> u32 {
        self.count.load(Ordering::Acquire)
    }
}

/// What a handle to a shared allocation ([`SharedSlice`], [`SliceOrBox`])
/// tells of it, written once from its pointer.
///
/// # Safety
/// [`Handle::raw`] must give the header of an allocation that lives while
/// the handle does, or `None` (no allocation).
pub(crate) unsafe trait Handle {
    /// The allocation's header (`None`: empty, no allocation).
    fn raw(&self) -> Option<NonNull<Header>>;

    /// The header, if there is an allocation.
    #[inline]
    fn header(&self) -> Option<&Header> {
        // SAFETY: the header lives while `self` does (the trait's contract).
        self.raw().map(|h| unsafe { &*h.as_ptr() })
    }

    /// Whether no other reference shares the allocation (an empty handle
    /// is not shared): its holder may change it in place.
    #[inline]
    fn is_unique(&self) -> bool {
        self.header().is_none_or(Header::is_unique)
    }

    /// The number of references to the allocation (1 when empty).
    fn strong_count(&self) -> usize {
        self.header().map_or(1, |h| h.count() as usize)
    }

    /// The allocation's address (0 when empty): an identity while it lives.
    #[inline]
    fn addr(&self) -> usize {
        self.raw().map_or(0, |p| p.as_ptr() as usize)
    }

    /// Whether both are the same allocation (two empty handles are).
    #[inline]
    fn ptr_eq(a: &Self, b: &Self) -> bool
    where
        Self: Sized,
    {
        a.raw() == b.raw()
    }
}

// SAFETY: `ptr` is the slice's own allocation, freed by its last drop.
unsafe impl<T> Handle for SharedSlice<T> {
    #[inline]
    fn raw(&self) -> Option<NonNull<Header>> {
        self.ptr
    }
}

// SAFETY: `ptr` is the slice's or the box's own allocation, freed by its
// last drop.
unsafe impl<E, B> Handle for SliceOrBox<E, B> {
    #[inline]
    fn raw(&self) -> Option<NonNull<Header>> {
        self.ptr
    }
}

/// A reference-counted slice of `T`s (see the module documentation): 8
/// bytes, no allocation when empty.
pub(crate) struct SharedSlice<T> {
    ptr: Option<NonNull<Header>>,
    _owns: PhantomData<T>,
}

// SAFETY: as `Arc<[T]>`: the elements are shared between threads only
// through `&T`, and the count is atomic.
unsafe impl<T: Send + Sync> Send for SharedSlice<T> {}
// SAFETY: as above.
unsafe impl<T: Send + Sync> Sync for SharedSlice<T> {}

impl<T> SharedSlice<T> {
    /// The layout of an allocation of `len` elements, and the offset of the
    /// first.
    #[inline]
    fn layout(len: usize) -> (Layout, usize) {
        let (layout, offset, _) = Self::layout_with_tail(len, 0);
        (layout, offset)
    }

    /// The layout of an allocation of `len` elements and a tail of `tail`
    /// `u16`s (none: no tail), the offset of the first element and that of
    /// the tail's length (a `u32`, the `u16`s after it).
    #[inline]
    fn layout_with_tail(len: usize, tail: usize) -> (Layout, usize, usize) {
        const FITS: &str = "a slice that fits the address space";
        let (layout, offset) = Layout::new::<Header>()
            .extend(Layout::array::<T>(len).expect(FITS))
            .expect(FITS);
        if tail == 0 {
            return (layout.pad_to_align(), offset, 0);
        }
        let (layout, tail_at) = layout.extend(Layout::new::<u32>()).expect(FITS);
        let (layout, _) = layout
            .extend(Layout::array::<u16>(tail).expect(FITS))
            .expect(FITS);
        (layout.pad_to_align(), offset, tail_at)
    }

    /// The offset of the tail's length in an allocation of `len` elements
    /// that has a tail: [`SharedSlice::layout_with_tail`]'s, without its
    /// checks (the allocation exists, so its layout was valid).
    #[inline]
    fn tail_at(len: usize) -> usize {
        let (_, offset) = Self::layout(0);
        let at = (offset + len * std::mem::size_of::<T>() + 3) & !3;
        debug_assert_eq!(at, Self::layout_with_tail(len, 1).2);
        at
    }

    /// The number of elements and of the tail's `u16`s of the allocation
    /// at `header`.
    #[inline]
    fn dims(header: NonNull<Header>) -> (usize, usize) {
        // SAFETY: the header lives while a reference does; a tailed slice's
        // tail length was written after its elements (`from_vec_with_tail`).
        unsafe {
            let raw = (*header.as_ptr()).len;
            let len = (raw & !TAILED) as usize;
            if raw & TAILED == 0 {
                return (len, 0);
            }
            let count = header
                .as_ptr()
                .cast::<u8>()
                .add(Self::tail_at(len))
                .cast::<u32>()
                .read();
            (len, count as usize)
        }
    }

    /// The empty slice (no allocation).
    pub(crate) const fn new() -> SharedSlice<T> {
        SharedSlice {
            ptr: None,
            _owns: PhantomData,
        }
    }

    /// The slice of `v`'s elements (moved, not cloned; `v`'s buffer freed).
    pub(crate) fn from_vec(v: Vec<T>) -> SharedSlice<T> {
        if v.is_empty() {
            return SharedSlice::new();
        }
        SharedSlice::from_vec_with_tail(v, &[])
    }

    /// The slice of `v`'s elements (moved), with `tail` after them in the
    /// same allocation (none when empty; see [`SharedSlice::tail`]).
    pub(crate) fn from_vec_with_tail(mut v: Vec<T>, tail: &[u16]) -> SharedSlice<T> {
        SharedSlice::moved_from(&mut v, 0, tail)
    }

    /// The slice of `v`'s elements from `start` on, moved out of `v` (which
    /// keeps its first `start` and its buffer): a parser's stack of values
    /// made into a slice with one allocation, of its exact size.
    ///
    /// # Panics
    /// If `start` is past `v`'s end.
    pub(crate) fn take_from(v: &mut Vec<T>, start: usize) -> SharedSlice<T> {
        SharedSlice::moved_from(v, start, &[])
    }

    /// [`SharedSlice::take_from`], with `tail` after the elements.
    fn moved_from(v: &mut Vec<T>, start: usize, tail: &[u16]) -> SharedSlice<T> {
        assert!(
            start <= v.len(),
            "take_from({start}) of {} elements",
            v.len()
        );
        let n = v.len() - start;
        if n == 0 && tail.is_empty() {
            return SharedSlice::new();
        }
        let len = header_len(n, !tail.is_empty());
        let tail_len = u32::try_from(tail.len()).expect("a tail of fewer than 4 billion u16s");
        let (layout, offset, tail_at) = Self::layout_with_tail(n, tail.len());
        // SAFETY: the layout has a non-zero size (the header). The header
        // is written, then the elements from `start` are moved in and `v`
        // forgets them (nothing can panic in between), then the tail's
        // length and the tail are copied in.
        unsafe {
            let p = alloc(layout);
            let Some(header) = NonNull::new(p.cast::<Header>()) else {
                handle_alloc_error(layout)
            };
            header.as_ptr().write(Header::new(len));
            std::ptr::copy_nonoverlapping(v.as_ptr().add(start), p.add(offset).cast::<T>(), n);
            v.set_len(start);
            if !tail.is_empty() {
                p.add(tail_at).cast::<u32>().write(tail_len);
                std::ptr::copy_nonoverlapping(
                    tail.as_ptr(),
                    p.add(tail_at + 4).cast::<u16>(),
                    tail.len(),
                );
            }
            SharedSlice {
                ptr: Some(header),
                _owns: PhantomData,
            }
        }
    }

    /// The slice of the allocation at `header`, which a
    /// [`SharedSlice::into_raw`] gave.
    ///
    /// # Safety
    /// `header` must come from `into_raw` of a `SharedSlice<T>`, and its
    /// reference be given back only once.
    unsafe fn from_raw(header: NonNull<Header>) -> SharedSlice<T> {
        SharedSlice {
            ptr: Some(header),
            _owns: PhantomData,
        }
    }

    /// [`SharedSlice::from_raw`] of `header`, or the empty slice.
    ///
    /// # Safety
    /// As `from_raw`.
    unsafe fn from_raw_option(header: Option<NonNull<Header>>) -> SharedSlice<T> {
        SharedSlice {
            ptr: header,
            _owns: PhantomData,
        }
    }

    /// The allocation's header (`None`: the slice is empty), its reference
    /// kept: [`SharedSlice::from_raw`] gives it back.
    fn into_raw(self) -> Option<NonNull<Header>> {
        let ptr = self.ptr;
        std::mem::forget(self);
        ptr
    }

    /// The first element's address in the allocation at `header`.
    #[inline]
    fn elements(header: NonNull<Header>) -> *mut T {
        let (_, offset) = Self::layout(0);
        // SAFETY: the elements start `offset` bytes into the allocation.
        unsafe { header.as_ptr().cast::<u8>().add(offset).cast::<T>() }
    }

    /// The elements and the tail of the allocation at `header`.
    ///
    /// # Safety
    /// `header` must be a `SharedSlice<T>`'s allocation that lives for
    /// `'a`.
    #[inline]
    unsafe fn view<'a>(header: NonNull<Header>) -> (&'a [T], &'a [u16]) {
        let (len, tail) = Self::dims(header);
        // SAFETY: the allocation holds `len` initialized elements and, when
        // `tail` is not 0, the tail's length and its `tail` u16s, written
        // when it was made; it lives for 'a (the caller's promise).
        unsafe {
            let elements = std::slice::from_raw_parts(Self::elements(header), len);
            if tail == 0 {
                return (elements, &[]);
            }
            let at = header
                .as_ptr()
                .cast::<u8>()
                .add(Self::tail_at(len) + 4)
                .cast::<u16>();
            (elements, std::slice::from_raw_parts(at, tail))
        }
    }

    /// The elements.
    #[inline]
    pub(crate) fn as_slice(&self) -> &[T] {
        match self.ptr {
            None => &[],
            // SAFETY: the allocation lives while `self` does.
            Some(h) => unsafe { Self::view(h).0 },
        }
    }

    /// The tail that follows the elements (empty when there is none).
    #[inline]
    pub(crate) fn tail(&self) -> &[u16] {
        match self.ptr {
            None => &[],
            // SAFETY: the allocation lives while `self` does.
            Some(h) => unsafe { Self::view(h).1 },
        }
    }

    /// The number of elements.
    #[inline]
    pub(crate) fn len(&self) -> usize {
        self.as_slice().len()
    }
}

impl<T: Clone> SharedSlice<T> {
    /// The elements, to change: copied first into an allocation of their
    /// own when another reference shares them (copy on write).
    #[inline]
    pub(crate) fn make_mut(&mut self) -> &mut [T] {
        if !self.is_unique() {
            *self = SharedSlice::from_vec_with_tail(self.as_slice().to_vec(), self.tail());
        }
        match self.ptr {
            None => &mut [],
            // SAFETY: this is the only reference, borrowed mutably.
            Some(h) => unsafe {
                std::slice::from_raw_parts_mut(Self::elements(h), Self::dims(h).0)
            },
        }
    }

    /// The elements in a `Vec` (the tail dropped): moved out when this is
    /// the only reference, else cloned.
    pub(crate) fn into_vec(self) -> Vec<T> {
        if !self.is_unique() {
            return self.as_slice().to_vec();
        }
        let Some(h) = self.into_raw() else {
            return Vec::new();
        };
        // SAFETY: the only reference: the elements are moved into the Vec
        // and the allocation freed without dropping them.
        unsafe {
            let (len, tail) = Self::dims(h);
            let mut v = Vec::with_capacity(len);
            std::ptr::copy_nonoverlapping(Self::elements(h), v.as_mut_ptr(), len);
            v.set_len(len);
            dealloc(h.as_ptr().cast::<u8>(), Self::layout_with_tail(len, tail).0);
            v
        }
    }
}

impl<T> Clone for SharedSlice<T> {
    /// Another reference to the same elements (a count increment).
    #[inline]
    fn clone(&self) -> SharedSlice<T> {
        if let Some(h) = self.header() {
            h.retain();
        }
        SharedSlice {
            ptr: self.ptr,
            _owns: PhantomData,
        }
    }
}

impl<T> Drop for SharedSlice<T> {
    fn drop(&mut self) {
        let Some(h) = self.ptr else {
            return;
        };
        // SAFETY: the header lives until the last reference frees it, here.
        unsafe {
            if !(*h.as_ptr()).release() {
                return;
            }
            let (len, tail) = Self::dims(h);
            std::ptr::drop_in_place(std::ptr::slice_from_raw_parts_mut(Self::elements(h), len));
            let layout = match tail {
                0 => Self::layout(len).0,
                _ => Self::layout_with_tail(len, tail).0,
            };
            dealloc(h.as_ptr().cast::<u8>(), layout);
        }
    }
}

impl<T> Default for SharedSlice<T> {
    fn default() -> SharedSlice<T> {
        SharedSlice::new()
    }
}

impl<T: Copy> SharedSlice<T> {
    /// A slice of copies of `items`, in one allocation (none when empty).
    pub(crate) fn copy_of(items: &[T]) -> SharedSlice<T> {
        if items.is_empty() {
            return SharedSlice::new();
        }
        let len = header_len(items.len(), false);
        let (layout, offset) = Self::layout(items.len());
        // SAFETY: the layout has a non-zero size (the header); the header
        // is written, then the elements copied (`T: Copy`).
        unsafe {
            let p = alloc(layout);
            let Some(header) = NonNull::new(p.cast::<Header>()) else {
                handle_alloc_error(layout)
            };
            header.as_ptr().write(Header::new(len));
            std::ptr::copy_nonoverlapping(items.as_ptr(), p.add(offset).cast::<T>(), items.len());
            SharedSlice::from_raw(header)
        }
    }
}

/// An immutable reference-counted string: a [`SharedSlice`] of its UTF-8
/// bytes (8 bytes of header where `arcstr::ArcStr` has 16: issue 18, one
/// per long string of the file cache). Its default is the empty string,
/// with no allocation.
#[derive(Clone, Default)]
pub(crate) struct SharedStr(SharedSlice<u8>);

impl SharedStr {
    /// A string of `s`'s text, in one allocation.
    pub(crate) fn new(s: &str) -> SharedStr {
        SharedStr(SharedSlice::copy_of(s.as_bytes()))
    }

    /// The text.
    #[inline]
    pub(crate) fn as_str(&self) -> &str {
        // SAFETY: the bytes were copied from a `str` (`new`) and never
        // change (no mutable access is given).
        unsafe { std::str::from_utf8_unchecked(self.0.as_slice()) }
    }

    /// Whether both are the same allocation.
    #[inline]
    pub(crate) fn ptr_eq(a: &SharedStr, b: &SharedStr) -> bool {
        SharedSlice::ptr_eq(&a.0, &b.0)
    }

    /// How many references share the string.
    pub(crate) fn strong_count(&self) -> usize {
        self.0.strong_count()
    }
}

/// The allocation of a [`SliceOrBox`]'s box: a header of length
/// [`NOT_A_SLICE`], then the value.
#[repr(C)]
struct Boxed<B> {
    header: Header,
    value: B,
}

/// One thin pointer to either a [`SharedSlice`] of `E`s or a shared box of
/// a `B`, both reference counted and copied on write; no allocation when
/// empty (an empty slice).
pub(crate) struct SliceOrBox<E, B> {
    ptr: Option<NonNull<Header>>,
    _owns: PhantomData<(E, B)>,
}

// SAFETY: as `Arc<[E]>` and `Arc<B>`: shared between threads only through
// `&E` and `&B`, and the count is atomic.
unsafe impl<E: Send + Sync, B: Send + Sync> Send for SliceOrBox<E, B> {}
// SAFETY: as above.
unsafe impl<E: Send + Sync, B: Send + Sync> Sync for SliceOrBox<E, B> {}

/// What a [`SliceOrBox`] points at.
pub(crate) enum Form<'a, E, B> {
    /// The elements and the tail (empty when there is none).
    Slice(&'a [E], &'a [u16]),
    Boxed(&'a B),
}

impl<E, B> SliceOrBox<E, B> {
    /// The slice of `v`'s elements (moved), in one allocation.
    pub(crate) fn slice(v: Vec<E>) -> SliceOrBox<E, B> {
        SliceOrBox::slice_with_tail(v, &[])
    }

    /// The slice of `v`'s elements (moved) and `tail` after them, in one
    /// allocation (see [`SharedSlice::from_vec_with_tail`]).
    pub(crate) fn slice_with_tail(v: Vec<E>, tail: &[u16]) -> SliceOrBox<E, B> {
        SliceOrBox {
            ptr: SharedSlice::from_vec_with_tail(v, tail).into_raw(),
            _owns: PhantomData,
        }
    }

    /// `value`, boxed.
    pub(crate) fn boxed(value: B) -> SliceOrBox<E, B> {
        let b = Box::new(Boxed {
            header: Header::new(NOT_A_SLICE),
            value,
        });
        SliceOrBox {
            ptr: Some(NonNull::from(Box::leak(b)).cast::<Header>()),
            _owns: PhantomData,
        }
    }

    /// Whether this points at a box.
    #[inline]
    pub(crate) fn is_boxed(&self) -> bool {
        self.header().is_some_and(|h| h.len() == NOT_A_SLICE)
    }

    /// What this points at.
    #[inline]
    pub(crate) fn form(&self) -> Form<'_, E, B> {
        match self.ptr {
            None => Form::Slice(&[], &[]),
            // SAFETY: a header of length NOT_A_SLICE starts a Boxed<B>
            // (`boxed`), any other a SharedSlice<E> (`slice`); either lives
            // while `self` does.
            Some(h) => unsafe {
                if (*h.as_ptr()).len() == NOT_A_SLICE {
                    Form::Boxed(&(*h.cast::<Boxed<B>>().as_ptr()).value)
                } else {
                    let (elements, tail) = SharedSlice::<E>::view(h);
                    Form::Slice(elements, tail)
                }
            },
        }
    }
}

impl<E: Clone, B: Clone> SliceOrBox<E, B> {
    /// The slice's elements to change (copied first when shared), or
    /// `None` for a box.
    #[inline]
    pub(crate) fn slice_mut(&mut self) -> Option<&mut [E]> {
        if self.is_boxed() {
            return None;
        }
        // SAFETY: not a box: the pointer is a SharedSlice<E>'s, lent to one
        // for the change and taken back.
        let mut slice = unsafe { SharedSlice::<E>::from_raw_option(self.ptr.take()) };
        slice.make_mut();
        self.ptr = slice.into_raw();
        match self.ptr {
            None => Some(&mut []),
            // SAFETY: the only reference, borrowed mutably.
            Some(h) => unsafe {
                Some(std::slice::from_raw_parts_mut(
                    SharedSlice::<E>::elements(h),
                    SharedSlice::<E>::dims(h).0,
                ))
            },
        }
    }

    /// The box's value to change (copied first when shared), or `None` for
    /// a slice.
    #[inline]
    pub(crate) fn boxed_mut(&mut self) -> Option<&mut B> {
        if !self.is_boxed() {
            return None;
        }
        if !self.is_unique() {
            let copy = match self.form() {
                Form::Boxed(b) => b.clone(),
                Form::Slice(..) => return None,
            };
            *self = SliceOrBox::boxed(copy);
        }
        let h = self.ptr?;
        // SAFETY: a box, of which this is the only reference, borrowed
        // mutably.
        Some(unsafe { &mut (*h.cast::<Boxed<B>>().as_ptr()).value })
    }

    /// The slice's elements, taken out (moved when not shared, else
    /// cloned; the tail dropped), leaving an empty slice; `None` for a box
    /// (left as it is).
    pub(crate) fn take_slice(&mut self) -> Option<Vec<E>> {
        if self.is_boxed() {
            return None;
        }
        // SAFETY: not a box: the pointer is a SharedSlice<E>'s, taken out.
        let slice = unsafe { SharedSlice::<E>::from_raw_option(self.ptr.take()) };
        Some(slice.into_vec())
    }
}

impl<E, B> Clone for SliceOrBox<E, B> {
    /// Another reference to the same allocation (a count increment).
    #[inline]
    fn clone(&self) -> SliceOrBox<E, B> {
        if let Some(h) = self.header() {
            h.retain();
        }
        SliceOrBox {
            ptr: self.ptr,
            _owns: PhantomData,
        }
    }
}

impl<E, B> Drop for SliceOrBox<E, B> {
    fn drop(&mut self) {
        let Some(h) = self.ptr.take() else {
            return;
        };
        // SAFETY: the header lives until its last reference frees it.
        if unsafe { h.as_ref() }.len() != NOT_A_SLICE {
            // SAFETY: not a box: the pointer is a SharedSlice<E>'s, whose
            // drop counts the reference down.
            drop(unsafe { SharedSlice::<E>::from_raw(h) });
        // SAFETY: as above.
        } else if unsafe { h.as_ref() }.release() {
            // SAFETY: the last reference to a box `boxed` made.
            drop(unsafe { Box::from_raw(h.cast::<Boxed<B>>().as_ptr()) });
        }
    }
}

impl<E, B> Default for SliceOrBox<E, B> {
    fn default() -> SliceOrBox<E, B> {
        SliceOrBox {
            ptr: None,
            _owns: PhantomData,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicUsize;

    /// Counts its drops.
    #[derive(Clone)]
    struct Counted<'a>(&'a AtomicUsize, u32);

    impl Drop for Counted<'_> {
        fn drop(&mut self) {
            self.0.fetch_add(1, Ordering::Relaxed);
        }
    }

    #[test]
    fn one_pointer_and_an_eight_byte_header() {
        assert_eq!(std::mem::size_of::<SharedSlice<u64>>(), 8);
        assert_eq!(std::mem::size_of::<Option<SharedSlice<u64>>>(), 16);
        assert_eq!(SharedSlice::<(u64, u64)>::layout(2).0.size(), 8 + 32);
        assert_eq!(SharedSlice::<u64>::layout(0).1, 8);
    }

    #[test]
    fn a_length_never_reads_as_a_tail_or_a_box() {
        assert_eq!(header_len(5, false), 5);
        assert_eq!(header_len(5, true), 5 | TAILED);
        assert_eq!(header_len(TAILED as usize - 1, false), TAILED - 1);
        assert_eq!(header_len(TAILED as usize - 2, true), NOT_A_SLICE - 1);
        for (n, tailed) in [
            (TAILED as usize, false),
            (TAILED as usize - 1, true),
            (u32::MAX as usize, false),
            (1 << 40, false),
        ] {
            assert!(
                std::panic::catch_unwind(|| header_len(n, tailed)).is_err(),
                "{n} {tailed}"
            );
        }
    }

    #[test]
    fn elements_are_dropped_once_by_the_last_reference() {
        let drops = AtomicUsize::new(0);
        let s = SharedSlice::from_vec((0..5).map(|i| Counted(&drops, i)).collect());
        let t = s.clone();
        assert!(SharedSlice::ptr_eq(&s, &t));
        assert_eq!(s.strong_count(), 2);
        drop(s);
        assert_eq!(drops.load(Ordering::Relaxed), 0);
        assert_eq!(t.as_slice().iter().map(|c| c.1).sum::<u32>(), 10);
        drop(t);
        assert_eq!(drops.load(Ordering::Relaxed), 5);
    }

    #[test]
    fn a_shared_slice_is_copied_on_write_and_a_unique_one_is_not() {
        let mut s = SharedSlice::from_vec(vec![1u64, 2, 3]);
        let at = s.addr();
        s.make_mut()[0] = 10;
        assert_eq!(s.addr(), at, "a unique slice is changed in place");
        let t = s.clone();
        s.make_mut()[1] = 20;
        assert_ne!(s.addr(), at);
        assert_eq!(s.as_slice(), &[10, 20, 3]);
        assert_eq!(t.as_slice(), &[10, 2, 3]);
        assert!(s.is_unique() && t.is_unique());
        let u = t.clone();
        assert_eq!(t.into_vec(), vec![10, 2, 3]);
        assert_eq!(u.strong_count(), 1);
        assert_eq!(u.into_vec(), vec![10, 2, 3]);
    }

    #[test]
    fn moving_out_drops_nothing_twice() {
        let drops = AtomicUsize::new(0);
        let s = SharedSlice::from_vec((0..3).map(|i| Counted(&drops, i)).collect());
        let v = s.into_vec();
        assert_eq!(drops.load(Ordering::Relaxed), 0);
        assert_eq!(v.len(), 3);
        drop(v);
        assert_eq!(drops.load(Ordering::Relaxed), 3);
    }

    #[test]
    fn taking_a_stack_s_top_moves_it_and_leaves_the_rest() {
        let drops = AtomicUsize::new(0);
        let mut stack: Vec<Counted> = (0..6).map(|i| Counted(&drops, i)).collect();
        let top = SharedSlice::take_from(&mut stack, 2);
        assert_eq!(
            top.as_slice().iter().map(|c| c.1).collect::<Vec<_>>(),
            [2, 3, 4, 5]
        );
        assert_eq!(stack.iter().map(|c| c.1).collect::<Vec<_>>(), [0, 1]);
        assert_eq!(drops.load(Ordering::Relaxed), 0);
        let none = SharedSlice::take_from(&mut stack, 2);
        assert_eq!((none.addr(), none.len(), stack.len()), (0, 0, 2));
        drop(top);
        assert_eq!(drops.load(Ordering::Relaxed), 4);
        drop(stack);
        assert_eq!(drops.load(Ordering::Relaxed), 6);
    }

    #[test]
    #[should_panic(expected = "take_from(3) of 2 elements")]
    fn taking_past_the_end_panics() {
        let mut stack = vec![1u64, 2];
        let _ = SharedSlice::take_from(&mut stack, 3);
    }

    #[test]
    fn an_empty_slice_is_no_allocation() {
        let s = SharedSlice::<u64>::from_vec(Vec::with_capacity(10));
        assert_eq!(s.addr(), 0);
        assert!(s.is_unique());
        assert_eq!(s.clone().into_vec(), Vec::<u64>::new());
        assert!(SharedSlice::ptr_eq(&s, &SharedSlice::new()));
    }

    #[test]
    fn a_count_at_the_immortal_mark_stays_there() {
        let s = SharedSlice::from_vec(vec![7u64]);
        let raw = s.ptr.unwrap();
        // SAFETY: the allocation lives to the end of the test (immortal,
        // then freed last).
        let h = unsafe { raw.as_ref() };
        h.count.store(IMMORTAL - 1, Ordering::Relaxed);
        let t = s.clone();
        assert_eq!(h.count(), IMMORTAL);
        let u = t.clone();
        assert_eq!(h.count(), IMMORTAL, "past the mark, the count sticks");
        drop((t, u));
        assert_eq!(h.count(), IMMORTAL, "and is not counted down");
        assert!(!s.is_unique());
        drop(s);
        assert_eq!(h.count(), IMMORTAL, "nor freed");
        // The test frees what it made immortal.
        h.count.store(1, Ordering::Relaxed);
        // SAFETY: the header is the allocation's, referred to by nothing
        // else now; this is the one reference its count says.
        drop(unsafe { SharedSlice::<u64>::from_raw(raw) });
    }

    #[test]
    fn clones_dropped_on_many_threads_free_once() {
        let drops = AtomicUsize::new(0);
        let s = SharedSlice::from_vec((0..4).map(|i| Counted(&drops, i)).collect());
        std::thread::scope(|scope| {
            for _ in 0..4 {
                let mine: Vec<_> = (0..1000).map(|_| s.clone()).collect();
                scope.spawn(move || drop(mine));
            }
        });
        assert_eq!(s.strong_count(), 1);
        drop(s);
        assert_eq!(drops.load(Ordering::Relaxed), 4);
    }

    type Either = SliceOrBox<u64, Vec<u64>>;

    fn read(s: &Either) -> (bool, Vec<u64>) {
        match s.form() {
            Form::Slice(x, _) => (false, x.to_vec()),
            Form::Boxed(b) => (true, b.clone()),
        }
    }

    #[test]
    fn a_slice_or_a_box_says_which_it_is_and_copies_on_write() {
        let mut a: Either = SliceOrBox::slice(vec![1, 2]);
        let b = a.clone();
        assert!(!a.is_boxed() && a.boxed_mut().is_none());
        a.slice_mut().unwrap()[0] = 9;
        assert_eq!(read(&a), (false, vec![9, 2]));
        assert_eq!(
            read(&b),
            (false, vec![1, 2]),
            "the other reference keeps its slice"
        );
        let mut c: Either = SliceOrBox::boxed(vec![5]);
        let d = c.clone();
        assert!(c.is_boxed() && c.slice_mut().is_none() && c.take_slice().is_none());
        assert!(SliceOrBox::ptr_eq(&c, &d) && c.strong_count() == 2);
        c.boxed_mut().unwrap().push(6);
        assert_eq!(read(&c), (true, vec![5, 6]));
        assert_eq!(read(&d), (true, vec![5]));
        assert!(c.is_unique() && d.is_unique());
        let at = c.addr();
        c.boxed_mut().unwrap().push(7);
        assert_eq!(c.addr(), at, "a unique box is changed in place");
        let mut e = b.clone();
        assert_eq!(e.take_slice(), Some(vec![1, 2]));
        assert_eq!(read(&e), (false, vec![]));
        assert_eq!(e.addr(), 0);
        assert_eq!(b.strong_count(), 1);
    }

    #[test]
    fn a_box_is_dropped_once_by_its_last_reference() {
        let drops = AtomicUsize::new(0);
        {
            let a: SliceOrBox<u64, Counted<'_>> = SliceOrBox::boxed(Counted(&drops, 1));
            let copies: Vec<_> = (0..10).map(|_| a.clone()).collect();
            drop(a);
            std::thread::scope(|scope| {
                for c in copies {
                    scope.spawn(move || drop(c));
                }
            });
        }
        assert_eq!(drops.load(Ordering::Relaxed), 1);
        let drops = AtomicUsize::new(0);
        let mut s: SliceOrBox<Counted<'_>, u64> =
            SliceOrBox::slice((0..3).map(|i| Counted(&drops, i)).collect());
        let t = s.clone();
        s.slice_mut().unwrap()[0].1 = 7;
        assert_eq!(drops.load(Ordering::Relaxed), 0);
        drop((s, t));
        assert_eq!(drops.load(Ordering::Relaxed), 6);
    }

    #[test]
    fn a_shared_string_is_its_text_behind_an_eight_byte_header() {
        let s = SharedStr::new("ntp::servers::pool");
        assert_eq!(s.as_str(), "ntp::servers::pool");
        let t = s.clone();
        assert!(SharedStr::ptr_eq(&s, &t) && s.strong_count() == 2);
        assert!(!SharedStr::ptr_eq(
            &s,
            &SharedStr::new("ntp::servers::pool")
        ));
        assert_eq!(SharedSlice::<u8>::layout(18).0.size(), 8 + 20);
        assert_eq!(SharedStr::new("").as_str(), "");
        assert_eq!(std::mem::size_of::<SharedStr>(), 8);
    }
}
