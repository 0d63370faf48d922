//! The image digest: the first 8 bytes of the image file's SHA-256, as a
//! little-endian `u64`. A v2 descriptor carries it (word
//! [`DIGEST_WORD`](crate::descriptor::v2::DIGEST_WORD)); `offload-host`
//! compares it with the image it embeds. A program that embeds several
//! images (one per target) carries [`images_digest`] of all of them.

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

/// The digest of the images one program embeds, in registration order:
/// [`image_digest`] for one image; for several, the first 8 bytes
/// (little-endian) of the SHA-256 of their SHA-256s concatenated, so that
/// changing, adding, removing or reordering any image changes it.
#[cfg(feature = "digest")]
pub fn images_digest<I: AsRef<[u8]>>(images: &[I]) -> u64 {
    use sha2::{Digest, Sha256};
    if let [one] = images {
        return image_digest(one.as_ref());
    }
    let mut all = Sha256::new();
    for image in images {
        all.update(Sha256::digest(image.as_ref()));
    }
    let hash = all.finalize();
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

    #[test]
    fn several_images_digest_their_digests_in_order() {
        assert_eq!(images_digest(&[b"abc"]), image_digest(b"abc"));
        let ab = images_digest(&[&b"a"[..], &b"b"[..]]);
        assert_ne!(ab, images_digest(&[&b"b"[..], &b"a"[..]]));
        assert_ne!(ab, images_digest(&[&b"a"[..]]));
        assert_ne!(ab, images_digest(&[&b"ab"[..]]));
    }
}
