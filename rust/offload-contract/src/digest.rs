//! The image digest: the first 8 bytes of the image file's SHA-256, as a
//! little-endian `u64`. A v2 descriptor carries it (word
//! [`DIGEST_WORD`](crate::descriptor::v2::DIGEST_WORD)); `offload-host`
//! compares it with the image it embeds.

/// A descriptor digest that asks for no check.
pub const UNCHECKED: u64 = 0;

/// The digest of an image file's bytes.
#[cfg(feature = "digest")]
pub fn image_digest(image: &[u8]) -> u64 {
    use sha2::{Digest, Sha256};
    let hash = Sha256::digest(image);
    let mut first = [0u8; 8];
    first.copy_from_slice(&hash[..8]);
    u64::from_le_bytes(first)
}

#[cfg(all(test, feature = "digest"))]
mod tests {
    use super::*;

    #[test]
    fn sha256_prefix_little_endian() {
        // SHA-256("abc") = ba7816bf 8f01cfea 414140de ... (FIPS 180-2, B.1)
        assert_eq!(image_digest(b"abc"), 0xeacf_018f_bf16_78ba);
        // SHA-256("") = e3b0c442 98fc1c14 ...
        assert_eq!(image_digest(b""), 0x141c_fc98_42c4_b0e3);
    }
}
