package journal

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math/bits"

	"github.com/diffdesk/diffdesk/review/atomicfile"
	"github.com/klauspost/compress/zstd"
)

// Blob codecs stored in blobs.codec.
const (
	codecZstd      = "zstd"       // a plain zstd frame
	codecZstdDelta = "zstd-delta" // a zstd frame whose dictionary is blob base's content
)

// maxDeltaDepth bounds delta chains: reading a blob decodes at most this
// many deltas plus one full blob. A blob whose base is already this deep is
// stored in full instead.
const maxDeltaDepth = 8

// minDeltaBase is the smallest base (bytes) worth delta-compressing against;
// below it a plain frame is as small and cheaper to read.
const minDeltaBase = 4 << 10

// ErrBlobNotFound is returned by Journal.Blob for a hash the journal does
// not hold.
var ErrBlobNotFound = errors.New("blob not found")

// blobCodec holds the zstd encoder and decoder a Journal shares between
// goroutines; EncodeAll and DecodeAll are safe for concurrent use. The
// shared encoder is for blobs up to sharedWindow: it keeps a history
// buffer of its window for the journal's life (zstd's default window kept
// 16 MB in every window and desk: issue 28), so a bigger blob gets an
// encoder of its own, sized to it and dropped once it is encoded.
type blobCodec struct {
	enc *zstd.Encoder
	dec *zstd.Decoder
}

// sharedWindow is the largest blob the shared encoder compresses, and its
// window.
const sharedWindow = 1 << 20

func newBlobCodec() (*blobCodec, error) {
	enc, err := zstd.NewWriter(nil, zstd.WithEncoderConcurrency(1),
		zstd.WithWindowSize(sharedWindow), zstd.WithLowerEncoderMem(true))
	if err != nil {
		return nil, fmt.Errorf("journal: zstd encoder: %w", err)
	}
	dec, err := zstd.NewReader(nil, zstd.WithDecoderConcurrency(0))
	if err != nil {
		return nil, fmt.Errorf("journal: zstd decoder: %w", err)
	}
	return &blobCodec{enc: enc, dec: dec}, nil
}

func (c *blobCodec) close() {
	c.dec.Close()
	c.enc.Close()
}

// decode decompresses a plain frame of size bytes. A big one gets a
// decoder of its own: the shared decoder keeps a reference to what it
// decoded last, which would pin the blob's content in memory.
func (c *blobCodec) decode(data []byte, size int64) ([]byte, error) {
	if size <= sharedWindow {
		return c.dec.DecodeAll(data, make([]byte, 0, size))
	}
	return decodeDelta(data, nil, size)
}

// encode compresses content as one plain zstd frame.
func (c *blobCodec) encode(content []byte) ([]byte, error) {
	if len(content) <= sharedWindow {
		return c.enc.EncodeAll(content, nil), nil
	}
	return encodeDelta(content, nil)
}

// deltaWindow is the zstd window that lets a frame reach back over its
// whole dictionary (base) and its own content: the next power of two.
func deltaWindow(base, content int) int {
	w := 1 << bits.Len(uint(base+content))
	return max(w, zstd.MinWindowSize)
}

// encodeDelta compresses content with base as zstd's raw dictionary, so
// what content shares with base costs a few bytes per match (base nil: no
// dictionary). Its encoder lives for this call only, its history the size
// of its window and no more (WithLowerEncoderMem: not twice that).
func encodeDelta(content, base []byte) ([]byte, error) {
	opts := []zstd.EOption{
		zstd.WithEncoderConcurrency(1),
		zstd.WithWindowSize(deltaWindow(len(base), len(content))),
		zstd.WithLowerEncoderMem(true),
	}
	if base != nil {
		opts = append(opts, zstd.WithEncoderDictRaw(1, base))
	}
	enc, err := zstd.NewWriter(nil, opts...)
	if err != nil {
		return nil, err
	}
	defer enc.Close()
	return enc.EncodeAll(content, nil), nil
}

// decodeDelta decodes a frame encodeDelta made against base (nil: none).
func decodeDelta(data, base []byte, size int64) ([]byte, error) {
	opts := []zstd.DOption{
		zstd.WithDecoderConcurrency(1),
		zstd.WithDecoderMaxWindow(uint64(deltaWindow(len(base), int(size)))),
	}
	if base != nil {
		opts = append(opts, zstd.WithDecoderDictRaw(1, base))
	}
	dec, err := zstd.NewReader(nil, opts...)
	if err != nil {
		return nil, err
	}
	defer dec.Close()
	return dec.DecodeAll(data, make([]byte, 0, size))
}

// PutBlob stores content and returns its SHA-256 (lowercase hex), the key
// every record uses to refer to it. Content already stored is not stored
// again.
func (j *Journal) PutBlob(ctx context.Context, content []byte) (string, error) {
	return j.PutBlobDelta(ctx, content, "")
}

// PutBlobDelta is PutBlob for content that is probably a small change of
// the blob base (a hash from PutBlob; "" for none): when that is so, the
// content is stored as a zstd frame using base's content as its dictionary,
// which for a one-line edit of a large file costs a few hundred bytes
// instead of the whole file compressed. Reading it back needs base, which
// the journal never deletes.
func (j *Journal) PutBlobDelta(ctx context.Context, content []byte, base string) (string, error) {
	var batch blobBatch
	hash, err := batch.addOnto(ctx, j, content, base)
	if err != nil {
		return "", err
	}
	return hash, j.write(ctx, "store blob "+hash, batch.insert)
}

// blobBatch is blobs encoded outside the write lock and inserted with the
// records that refer to them, in one transaction.
type blobBatch struct {
	blobs []pendingBlob
}

type pendingBlob struct {
	hash    string
	content []byte // kept while the batch lives: a later blob may delta against it
	codec   string
	data    []byte
	base    sql.NullString
	depth   int
}

// add encodes content (as a delta against baseContent when that is much
// smaller; baseContent nil for none) unless the journal or the batch holds
// it already, and returns its hash. baseContent must itself be stored, or
// added to the batch first. When baseContent's delta chain is already
// maxDeltaDepth long, the delta is made against the chain's full blob
// instead, so chains stay short without storing the whole file again.
func (b *blobBatch) add(ctx context.Context, j *Journal, content, baseContent []byte) (string, error) {
	hash := atomicfile.Hash(content)
	if _, _, err := b.link(ctx, j, hash); err == nil || !errors.Is(err, ErrBlobNotFound) {
		return hash, err
	}
	return hash, b.encode(ctx, j, hash, content, baseContent)
}

// addOnto is add with the base named by its hash ("" for none), which is
// read only if content is not stored yet.
func (b *blobBatch) addOnto(ctx context.Context, j *Journal, content []byte, base string) (string, error) {
	hash := atomicfile.Hash(content)
	if _, _, err := b.link(ctx, j, hash); err == nil || !errors.Is(err, ErrBlobNotFound) {
		return hash, err
	}
	var baseContent []byte
	if base != "" && len(content) >= minDeltaBase {
		var err error
		if baseContent, err = b.content(ctx, j, base); err != nil {
			return "", err
		}
	}
	return hash, b.encode(ctx, j, hash, content, baseContent)
}

// encode adds content, not yet stored, to the batch.
func (b *blobBatch) encode(ctx context.Context, j *Journal, hash string, content, baseContent []byte) error {
	data, err := j.codec.encode(content)
	if err != nil {
		return fmt.Errorf("journal %s: compress blob %s: %w", j.path, hash, err)
	}
	p := pendingBlob{hash: hash, content: content, codec: codecZstd, data: data}
	if baseContent != nil && len(content) >= minDeltaBase && len(baseContent) >= minDeltaBase {
		base := atomicfile.Hash(baseContent)
		depth, next, err := b.link(ctx, j, base)
		if err == nil && depth >= maxDeltaDepth {
			for err == nil && depth > 0 { // walk to the chain's full blob
				base = next
				depth, next, err = b.link(ctx, j, base)
			}
			if err == nil {
				baseContent, err = b.content(ctx, j, base)
			}
		}
		if err != nil {
			return err
		}
		if base != hash {
			delta, err := encodeDelta(content, baseContent)
			if err != nil {
				return fmt.Errorf("journal %s: delta-compress blob %s: %w", j.path, hash, err)
			}
			if len(delta) < len(p.data)/2 {
				p.codec, p.data, p.depth = codecZstdDelta, delta, depth+1
				p.base = sql.NullString{String: base, Valid: true}
			}
		}
	}
	b.blobs = append(b.blobs, p)
	return nil
}

// link returns the delta depth of a blob in the batch or the journal, and
// the blob it is a delta against ("" for a full blob).
func (b *blobBatch) link(ctx context.Context, j *Journal, hash string) (int, string, error) {
	for _, p := range b.blobs {
		if p.hash == hash {
			return p.depth, p.base.String, nil
		}
	}
	var depth int
	var base sql.NullString
	err := j.db.QueryRowContext(ctx, `SELECT depth, base FROM blobs WHERE hash = ?`, hash).Scan(&depth, &base)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, "", fmt.Errorf("journal %s: blob %s: %w", j.path, hash, ErrBlobNotFound)
	}
	if err != nil {
		return 0, "", fmt.Errorf("journal %s: look up blob %s: %w", j.path, hash, err)
	}
	return depth, base.String, nil
}

// content returns a blob's content from the batch or the journal.
func (b *blobBatch) content(ctx context.Context, j *Journal, hash string) ([]byte, error) {
	for _, p := range b.blobs {
		if p.hash == hash {
			return p.content, nil
		}
	}
	return j.Blob(ctx, hash)
}

// insert stores the batch's blobs in order (bases before their deltas).
func (b *blobBatch) insert(tx *sql.Tx) error {
	for _, p := range b.blobs {
		_, err := tx.Exec(
			`INSERT OR IGNORE INTO blobs(hash, size, codec, data, base, depth) VALUES (?, ?, ?, ?, ?, ?)`,
			p.hash, len(p.content), p.codec, p.data, p.base, p.depth)
		if err != nil {
			return fmt.Errorf("store blob %s: %w", p.hash, err)
		}
	}
	return nil
}

// Blob returns the content stored under hash, checked against the hash.
// An unknown hash gives an error wrapping ErrBlobNotFound.
func (j *Journal) Blob(ctx context.Context, hash string) ([]byte, error) {
	return j.blob(ctx, hash, 0)
}

// blob returns a blob's content; hops counts the deltas already followed.
func (j *Journal) blob(ctx context.Context, hash string, hops int) ([]byte, error) {
	var (
		size  int64
		codec string
		data  []byte
		base  sql.NullString
	)
	err := j.db.QueryRowContext(ctx,
		`SELECT size, codec, data, base FROM blobs WHERE hash = ?`, hash).
		Scan(&size, &codec, &data, &base)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("journal %s: blob %s: %w", j.path, hash, ErrBlobNotFound)
	}
	if err != nil {
		return nil, fmt.Errorf("journal %s: read blob %s: %w", j.path, hash, err)
	}
	var content []byte
	switch codec {
	case codecZstd:
		content, err = j.codec.decode(data, size)
	case codecZstdDelta:
		if !base.Valid || hops > 2*maxDeltaDepth {
			return nil, fmt.Errorf("journal %s: blob %s is corrupt: delta without a usable base", j.path, hash)
		}
		var baseContent []byte
		baseContent, err = j.blob(ctx, base.String, hops+1)
		if err != nil {
			return nil, err
		}
		content, err = decodeDelta(data, baseContent, size)
	default:
		return nil, fmt.Errorf("journal %s: blob %s: unknown codec %q (written by a newer DiffDesk?)", j.path, hash, codec)
	}
	if err != nil {
		return nil, fmt.Errorf("journal %s: decode blob %s: %w", j.path, hash, err)
	}
	// A delta's base is checked through the delta's own hash.
	if int64(len(content)) != size || (hops == 0 && atomicfile.Hash(content) != hash) {
		return nil, fmt.Errorf("journal %s: blob %s is corrupt: content does not match its hash", j.path, hash)
	}
	return content, nil
}
