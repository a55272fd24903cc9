//! The 256-byte header of a table file: encoding, decoding and its own checks.
//! `docs/table-format.md` has the layout.

use super::TableError;
use sha2::{Digest, Sha256};
use std::fmt;
use std::path::Path;

/// Bytes in the header; the payload starts here.
pub const HEADER_LEN: usize = 256;
/// The magic number that opens every table file.
pub const MAGIC: [u8; 8] = *b"TABULA\x1a\n";
/// The format version this build reads and writes. Version 1 had no block sums.
pub const VERSION: u32 = 2;
/// The payload block each stored sum covers, in bytes, for tables this build writes.
/// Readers take the size from the header.
pub const BLOCK_SIZE: u32 = 16 * 1024;
/// Bytes of each block's sum: the first 8 bytes of the block's SHA-256.
pub const SUM_LEN: usize = 8;

/// Block sizes a header may declare.
const BLOCK_SIZES: std::ops::RangeInclusive<u32> = 512..=(1 << 30);

const KIND: (usize, usize) = (24, 56);
const LAYOUT: (usize, usize) = (56, 72);
const VARIANT: (usize, usize) = (72, 200);
const CHECKSUM: (usize, usize) = (200, 232);
const BLOCK: (usize, usize) = (232, 236);
const RESERVED: (usize, usize) = (236, 240);
const SUMS_DIGEST: (usize, usize) = (240, 248);
const HEADER_SUM: (usize, usize) = (248, 256);

/// What the header says about a table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Header {
    /// The table format version the file was written with.
    pub version: u32,
    /// What the table holds, such as `nikoniko-equity`; at most 32 bytes of ASCII.
    pub kind: String,
    /// The record layout, such as `i16` or `u16x6`; at most 16 bytes of ASCII.
    pub layout: String,
    /// The rules the table was built for; at most 128 bytes of UTF-8.
    pub variant: String,
    /// Bytes in each record of the payload.
    pub record_size: u32,
    /// Number of records in the payload.
    pub record_count: u64,
    /// SHA-256 of the whole payload.
    pub checksum: [u8; 32],
    /// Bytes of payload each block sum covers (the last block may be shorter).
    pub block_size: u32,
    /// The first 8 bytes of the SHA-256 of the block-sum table.
    pub sums_digest: [u8; SUM_LEN],
}

impl Header {
    /// The payload checksum as lowercase hex.
    pub fn checksum_hex(&self) -> String {
        super::hex(&self.checksum)
    }

    /// Payload length in bytes, or `None` if it overflows.
    pub fn payload_len(&self) -> Option<u64> {
        u64::from(self.record_size).checked_mul(self.record_count)
    }

    /// Number of payload blocks, each with its own sum.
    pub fn block_count(&self) -> Option<u64> {
        Some(self.payload_len()?.div_ceil(u64::from(self.block_size)))
    }

    /// The whole file's length: header, payload, block sums; `None` if it overflows.
    pub fn file_len(&self) -> Option<u64> {
        let sums = self.block_count()?.checked_mul(SUM_LEN as u64)?;
        self.payload_len()?
            .checked_add(sums)?
            .checked_add(HEADER_LEN as u64)
    }

    /// The header's bytes, its own checksum last.
    pub(crate) fn encode(&self) -> [u8; HEADER_LEN] {
        let mut h = [0u8; HEADER_LEN];
        h[0..8].copy_from_slice(&MAGIC);
        h[8..12].copy_from_slice(&self.version.to_le_bytes());
        h[12..16].copy_from_slice(&self.record_size.to_le_bytes());
        h[16..24].copy_from_slice(&self.record_count.to_le_bytes());
        put_text(&mut h, KIND, &self.kind);
        put_text(&mut h, LAYOUT, &self.layout);
        put_text(&mut h, VARIANT, &self.variant);
        h[CHECKSUM.0..CHECKSUM.1].copy_from_slice(&self.checksum);
        h[BLOCK.0..BLOCK.1].copy_from_slice(&self.block_size.to_le_bytes());
        h[SUMS_DIGEST.0..SUMS_DIGEST.1].copy_from_slice(&self.sums_digest);
        let sum = Sha256::digest(&h[..HEADER_SUM.0]);
        h[HEADER_SUM.0..HEADER_SUM.1].copy_from_slice(&sum[..8]);
        h
    }

    /// Reads a header from the first bytes of the file at `path` (named in errors only).
    /// Never panics, whatever `h` holds.
    pub(crate) fn decode(path: &Path, h: &[u8]) -> Result<Header, TableError> {
        if h.len() < MAGIC.len() || h[..8] != MAGIC {
            return Err(TableError::NotATable {
                path: path.to_path_buf(),
            });
        }
        if h.len() < HEADER_LEN {
            return Err(TableError::Truncated {
                path: path.to_path_buf(),
                expected: HEADER_LEN as u64,
                actual: h.len() as u64,
            });
        }
        let u32_at = |at: usize| u32::from_le_bytes([h[at], h[at + 1], h[at + 2], h[at + 3]]);
        let version = u32_at(8);
        if version != VERSION {
            return Err(TableError::Version {
                path: path.to_path_buf(),
                found: version,
                supported: VERSION,
                hint: None,
            });
        }
        let sum = Sha256::digest(&h[..HEADER_SUM.0]);
        if sum[..8] != h[HEADER_SUM.0..HEADER_SUM.1] {
            return Err(TableError::HeaderCorrupt {
                path: path.to_path_buf(),
            });
        }
        let malformed = |message: &str| TableError::Malformed {
            path: path.to_path_buf(),
            message: message.to_string(),
        };
        let record_size = u32_at(12);
        if record_size == 0 {
            return Err(malformed("the header declares records of 0 bytes"));
        }
        let block_size = u32_at(BLOCK.0);
        if !block_size.is_power_of_two() || !BLOCK_SIZES.contains(&block_size) {
            return Err(malformed("the header declares an impossible block size"));
        }
        if h[RESERVED.0..RESERVED.1].iter().any(|&b| b != 0) {
            return Err(malformed("the header's reserved bytes are not zero"));
        }
        let mut record_count = [0u8; 8];
        record_count.copy_from_slice(&h[16..24]);
        let mut checksum = [0u8; 32];
        checksum.copy_from_slice(&h[CHECKSUM.0..CHECKSUM.1]);
        let mut sums_digest = [0u8; SUM_LEN];
        sums_digest.copy_from_slice(&h[SUMS_DIGEST.0..SUMS_DIGEST.1]);
        let header = Header {
            version,
            record_size,
            record_count: u64::from_le_bytes(record_count),
            kind: get_text(h, KIND).ok_or_else(|| malformed("the kind is not text"))?,
            layout: get_text(h, LAYOUT).ok_or_else(|| malformed("the layout is not text"))?,
            variant: get_text(h, VARIANT).ok_or_else(|| malformed("the variant is not text"))?,
            checksum,
            block_size,
            sums_digest,
        };
        if header.file_len().is_none() {
            return Err(malformed("the record count overflows"));
        }
        if let Some(size) = layout_size(&header.layout) {
            if size != u64::from(record_size) {
                return Err(malformed(&format!(
                    "the header's layout {} means records of {size} bytes, not {record_size}",
                    crate::fault::excerpt(&header.layout)
                )));
            }
        }
        Ok(header)
    }
}

impl fmt::Display for Header {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "kind      {}", self.kind)?;
        writeln!(f, "version   {}", self.version)?;
        writeln!(f, "variant   {}", self.variant)?;
        writeln!(
            f,
            "layout    {} ({} bytes a record)",
            self.layout, self.record_size
        )?;
        writeln!(f, "records   {}", self.record_count)?;
        writeln!(
            f,
            "blocks    {} of {} bytes, each with its own SHA-256",
            self.block_count().unwrap_or(0),
            self.block_size
        )?;
        write!(f, "checksum  sha256:{}", self.checksum_hex())
    }
}

/// The record size a layout such as `i16`, `u32x6` or `f64` names (a number type,
/// then `xN` for N of them), or `None` for a layout of another form.
pub(crate) fn layout_size(layout: &str) -> Option<u64> {
    let (scalar, count) = match layout.split_once('x') {
        Some((scalar, n)) if !n.starts_with('0') && n.bytes().all(|b| b.is_ascii_digit()) => {
            (scalar, n.parse::<u64>().ok()?)
        }
        Some(_) => return None,
        None => (layout, 1),
    };
    let bits: u64 = match scalar.as_bytes().first()? {
        b'i' | b'u' | b'f' => scalar[1..].parse().ok()?,
        _ => return None,
    };
    matches!(bits, 8 | 16 | 32 | 64).then(|| bits / 8 * count)
}

/// Whether `text` fits the header field `(start, end)`: at most its length, no NUL.
fn fits(text: &str, (start, end): (usize, usize)) -> bool {
    text.len() <= end - start && !text.as_bytes().contains(&0)
}

/// Whether every text of a descriptor fits its header field.
pub(crate) fn descriptor_fits(kind: &str, layout: &str, variant: &str) -> bool {
    fits(kind, KIND) && fits(layout, LAYOUT) && fits(variant, VARIANT)
}

fn put_text(h: &mut [u8], (start, end): (usize, usize), text: &str) {
    let bytes = text.as_bytes();
    assert!(bytes.len() <= end - start, "header text `{text}` too long");
    h[start..start + bytes.len()].copy_from_slice(bytes);
}

fn get_text(h: &[u8], (start, end): (usize, usize)) -> Option<String> {
    let field = &h[start..end];
    let used = field.iter().position(|&b| b == 0).unwrap_or(field.len());
    if field[used..].iter().any(|&b| b != 0) {
        return None;
    }
    String::from_utf8(field[..used].to_vec()).ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn text(max: usize) -> impl Strategy<Value = String> {
        proptest::collection::vec(1u8..=0x7f, 0..=max)
            .prop_map(|b| String::from_utf8(b).expect("ASCII"))
    }

    fn header() -> impl Strategy<Value = Header> {
        (
            (text(32), text(16), "[^\u{0}]{0,40}"),
            (1u32..=4096, 0u64..=1 << 40, 9u32..=30),
            (any::<[u8; 32]>(), any::<[u8; 8]>()),
        )
            .prop_filter(
                "texts fit their fields, a layout of a known form its record size",
                |((kind, layout, variant), (record_size, _, _), _)| {
                    descriptor_fits(kind, layout, variant)
                        && layout_size(layout).is_none_or(|s| s == u64::from(*record_size))
                },
            )
            .prop_map(
                |((kind, layout, variant), (record_size, record_count, log), (sum, digest))| {
                    Header {
                        version: VERSION,
                        kind,
                        layout,
                        variant,
                        record_size,
                        record_count,
                        checksum: sum,
                        block_size: 1 << log,
                        sums_digest: digest,
                    }
                },
            )
    }

    proptest! {
        #[test]
        fn any_bytes_decode_to_a_header_or_an_error_never_a_panic(
            bytes in proptest::collection::vec(any::<u8>(), 0..300),
        ) {
            let _ = Header::decode(Path::new("x"), &bytes);
        }

        #[test]
        fn bytes_after_a_good_magic_and_version_never_panic(
            rest in proptest::collection::vec(any::<u8>(), 0..260),
        ) {
            let mut bytes = MAGIC.to_vec();
            bytes.extend_from_slice(&VERSION.to_le_bytes());
            bytes.extend_from_slice(&rest);
            let _ = Header::decode(Path::new("x"), &bytes);
        }

        #[test]
        fn a_written_header_reads_back_the_same(h in header()) {
            let bytes = h.encode();
            prop_assert_eq!(Header::decode(Path::new("x"), &bytes).unwrap(), h);
        }

        #[test]
        fn any_flipped_bit_of_a_written_header_is_refused(
            h in header(), byte in 0usize..HEADER_LEN, bit in 0u8..8,
        ) {
            let mut bytes = h.encode();
            bytes[byte] ^= 1 << bit;
            prop_assert!(Header::decode(Path::new("x"), &bytes).is_err());
        }

        #[test]
        fn a_header_with_a_fixed_up_checksum_is_still_checked_field_by_field(
            h in header(), reserved in 1u8..=255, block in any::<u32>(),
        ) {
            let reseal = |mut bytes: [u8; HEADER_LEN]| {
                let sum = Sha256::digest(&bytes[..HEADER_SUM.0]);
                bytes[HEADER_SUM.0..].copy_from_slice(&sum[..8]);
                bytes
            };
            let mut bytes = h.encode();
            bytes[RESERVED.0] = reserved;
            let is_malformed = matches!(
                Header::decode(Path::new("x"), &reseal(bytes)),
                Err(TableError::Malformed { .. })
            );
            prop_assert!(is_malformed);
            let mut bytes = h.encode();
            bytes[BLOCK.0..BLOCK.1].copy_from_slice(&block.to_le_bytes());
            let decoded = Header::decode(Path::new("x"), &reseal(bytes));
            prop_assert_eq!(
                decoded.is_ok(),
                block.is_power_of_two() && BLOCK_SIZES.contains(&block)
            );
        }
    }

    #[test]
    fn a_layout_names_its_record_size_and_a_header_that_disagrees_is_refused() {
        assert_eq!(layout_size("i16"), Some(2));
        assert_eq!(layout_size("u32x6"), Some(24));
        assert_eq!(layout_size("f64"), Some(8));
        assert_eq!(layout_size("u16x06"), None);
        assert_eq!(layout_size("vec"), None);
        let h = Header {
            version: VERSION,
            kind: "gammon-cubeful".into(),
            layout: "i32x4".into(),
            variant: String::new(),
            record_size: 16,
            record_count: 10,
            checksum: [0; 32],
            block_size: BLOCK_SIZE,
            sums_digest: [0; SUM_LEN],
        };
        assert!(Header::decode(Path::new("x"), &h.encode()).is_ok());
        // Re-signed with records of 12 bytes, a forger's header says two things at once.
        let forged = Header {
            record_size: 12,
            ..h
        };
        let err = Header::decode(Path::new("x"), &forged.encode()).unwrap_err();
        assert!(
            err.to_string()
                .contains("layout i32x4 means records of 16 bytes, not 12"),
            "{err}"
        );
    }

    #[test]
    fn a_version_1_header_is_refused_as_an_old_format_before_any_other_check() {
        let mut bytes = [0u8; HEADER_LEN];
        bytes[..8].copy_from_slice(&MAGIC);
        bytes[8..12].copy_from_slice(&1u32.to_le_bytes());
        assert!(matches!(
            Header::decode(Path::new("old.tbl"), &bytes),
            Err(TableError::Version {
                found: 1,
                supported: VERSION,
                ..
            })
        ));
    }
}
