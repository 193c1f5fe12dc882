package workspace

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"strings"
)

// signature is a binary format's magic bytes at the start of a file.
type signature struct {
	kind string // what the file is, e.g. "a PNG image"
	// magic is the first bytes; '?' matches any byte (no signature has a
	// literal '?').
	magic string
	// and, if set, must hold too (for a magic too short to be sure).
	and func(sample []byte) bool
}

// signatures are the binary formats refused by their first bytes. Most of
// them also hold a NUL byte early, but not all (GIF, PDF, ZIP, ELF and
// bzip2 headers can be valid UTF-8 without one), and naming the format
// says more than an offset. Short or ASCII magics that a text file could
// start with ("MZ", "BM", "ID3") are left out or checked further.
var signatures = []signature{
	{kind: "a PNG image", magic: "\x89PNG\r\n\x1a\n"},
	{kind: "a JPEG image", magic: "\xff\xd8\xff"},
	{kind: "a GIF image", magic: "GIF87a"},
	{kind: "a GIF image", magic: "GIF89a"},
	{kind: "a TIFF image", magic: "II*\x00"},
	{kind: "a TIFF image", magic: "MM\x00*"},
	{kind: "a WebP image", magic: "RIFF????WEBP"},
	{kind: "a WAVE audio file", magic: "RIFF????WAVE"},
	{kind: "an AVI video", magic: "RIFF????AVI "},
	{kind: "an MP4 or QuickTime file", magic: "????ftyp"},
	{kind: "an Ogg media file", magic: "OggS\x00"},
	{kind: "a FLAC audio file", magic: "fLaC"},
	{kind: "a Photoshop image", magic: "8BPS\x00\x01"},
	{kind: "an icon", magic: "\x00\x00\x01\x00"},
	{kind: "a WOFF font", magic: "wOFF"},
	{kind: "a WOFF2 font", magic: "wOF2"},
	{kind: "a PDF document", magic: "%PDF-"},
	{kind: "a ZIP archive (also JAR, DOCX, XLSX, APK)", magic: "PK\x03\x04"},
	{kind: "a ZIP archive (also JAR, DOCX, XLSX, APK)", magic: "PK\x05\x06"},
	{kind: "a ZIP archive (also JAR, DOCX, XLSX, APK)", magic: "PK\x07\x08"},
	{kind: "gzip data", magic: "\x1f\x8b"},
	{kind: "bzip2 data", magic: "BZh?1AY&SY"},
	{kind: "xz data", magic: "\xfd7zXZ\x00"},
	{kind: "zstd data", magic: "\x28\xb5\x2f\xfd"},
	{kind: "a 7-Zip archive", magic: "7z\xbc\xaf\x27\x1c"},
	{kind: "a RAR archive", magic: "Rar!\x1a\x07"},
	{kind: "a tar archive", magic: strings.Repeat("?", 257) + "ustar"},
	{kind: "an ELF executable", magic: "\x7fELF"},
	{kind: "a Mach-O executable", magic: "\xfe\xed\xfa\xce"},
	{kind: "a Mach-O executable", magic: "\xfe\xed\xfa\xcf"},
	{kind: "a Mach-O executable", magic: "\xce\xfa\xed\xfe"},
	{kind: "a Mach-O executable", magic: "\xcf\xfa\xed\xfe"},
	{kind: "a Java class file or Mach-O universal binary", magic: "\xca\xfe\xba\xbe"},
	{kind: "a Windows (PE) executable", magic: "MZ", and: peHeader},
	{kind: "a WebAssembly module", magic: "\x00asm"},
	{kind: "an SQLite database", magic: "SQLite format 3\x00"},
}

// peHeader reports whether a file starting "MZ" is a PE executable: the
// offset at 0x3c points to "PE\0\0".
func peHeader(sample []byte) bool {
	if len(sample) < 0x40 {
		return false
	}
	at := binary.LittleEndian.Uint32(sample[0x3c:])
	return uint64(at)+4 <= uint64(len(sample)) && bytes.Equal(sample[at:at+4], []byte("PE\x00\x00"))
}

// sniffBinary says why sample (a file's first bytes) is binary — "a NUL
// byte at offset N", or its format "by its first bytes" — or "" if it may
// be text.
func sniffBinary(sample []byte) string {
	if len(sample) > binarySniffBytes {
		sample = sample[:binarySniffBytes]
	}
	for _, s := range signatures {
		if hasMagic(sample, s.magic) && (s.and == nil || s.and(sample)) {
			return s.kind + ", by its first bytes"
		}
	}
	if i := bytes.IndexByte(sample, 0); i >= 0 {
		return fmt.Sprintf("a NUL byte at offset %d", i)
	}
	return ""
}

// hasMagic reports whether sample starts with magic, '?' matching any byte.
func hasMagic(sample []byte, magic string) bool {
	if len(sample) < len(magic) {
		return false
	}
	for i := range len(magic) {
		if magic[i] != '?' && sample[i] != magic[i] {
			return false
		}
	}
	return true
}
