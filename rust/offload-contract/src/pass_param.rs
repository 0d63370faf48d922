//! How a file path travels in a pass parameter (`offload-host<image=...>`).
//!
//! A pipeline text cannot carry every byte of a path: LLVM's pipeline
//! parser splits at `,` and matches `<>`, the plugin splits parameters at
//! `;`, and rustc splits `-Cpasses` (and `-Zllvm-plugins`) at whitespace.
//! So a path value escapes those bytes, `%` itself, and control bytes as
//! `%` and two hex digits (`/my dir/a;b.so` is `/my%20dir/a%3Bb.so`);
//! the plugin reads `%XX` back as the byte. Every other byte stays as it is.

/// The escape byte: `%` and two hex digits stand for one byte.
pub const ESCAPE: u8 = b'%';

/// True for a byte a path value must write as `%XX`.
pub const fn needs_escape(byte: u8) -> bool {
    matches!(byte, b'%' | b';' | b',' | b'<' | b'>' | b' ') || byte.is_ascii_control()
}

/// The value of hex digit `digit` (either case).
pub const fn hex_value(digit: u8) -> Option<u8> {
    match digit {
        b'0'..=b'9' => Some(digit - b'0'),
        b'a'..=b'f' => Some(digit - b'a' + 10),
        b'A'..=b'F' => Some(digit - b'A' + 10),
        _ => None,
    }
}
