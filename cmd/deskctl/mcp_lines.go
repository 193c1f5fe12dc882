package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The MCP SDK's stdio transport ends the session on the first line it
// cannot decode, taking the agent's tools with it. `deskctl mcp` reads
// stdin itself, one JSON-RPC message per line: a line that is not JSON is
// answered with a parse error (-32700), one that is not a JSON-RPC message
// with an invalid-request error (-32600), both with id null as JSON-RPC
// says, and the session goes on.

// mcpMaxLine is the longest line `deskctl mcp` reads, in bytes (the SDK's
// own bound on a message).
const mcpMaxLine = mcp.DefaultMaxLineLength

// lockedWriter serialises whole-message writes from the SDK and from the
// line filter.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (w *lockedWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.w.Write(p)
}

// mcpLines returns what the SDK reads: the messages of in that decode,
// one per line. Lines that do not are answered on out and left out. The
// goroutine ends when in ends or fails, or the reader is closed.
func mcpLines(in io.Reader, out io.Writer) io.ReadCloser {
	pr, pw := io.Pipe()
	go func() {
		r := bufio.NewReaderSize(in, 64<<10)
		for {
			line, err := readMCPLine(r)
			if len(bytes.TrimSpace(line)) > 0 || errors.Is(err, errMCPLineTooLong) {
				if e := checkMCPMessage(line, err); e != nil {
					b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": nil, "error": e})
					out.Write(append(b, '\n'))
				} else if _, werr := pw.Write(append(line, '\n')); werr != nil {
					return
				}
			}
			if err != nil && !errors.Is(err, errMCPLineTooLong) {
				pw.CloseWithError(err)
				return
			}
		}
	}()
	return pr
}

var errMCPLineTooLong = fmt.Errorf("a message over %d bytes", mcpMaxLine)

// readMCPLine reads one line of at most mcpMaxLine bytes, without its
// "\n"; a longer line is skipped to its end and is errMCPLineTooLong.
func readMCPLine(r *bufio.Reader) ([]byte, error) {
	var line []byte
	for {
		chunk, err := r.ReadSlice('\n')
		if len(line)+len(chunk) > mcpMaxLine+1 {
			for errors.Is(err, bufio.ErrBufferFull) {
				_, err = r.ReadSlice('\n')
			}
			if err == nil {
				err = errMCPLineTooLong
			}
			return nil, err
		}
		line = append(line, chunk...)
		if !errors.Is(err, bufio.ErrBufferFull) {
			return bytes.TrimSuffix(line, []byte("\n")), err
		}
	}
}

// mcpError is a JSON-RPC error object.
type mcpError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

// checkMCPMessage says why line (read with readErr) is not a message the
// SDK can take, or nil if it is: one JSON-RPC message, or a non-empty batch.
func checkMCPMessage(line []byte, readErr error) *mcpError {
	if errors.Is(readErr, errMCPLineTooLong) {
		return &mcpError{Code: -32600, Message: "deskctl mcp: " + readErr.Error() + " was skipped"}
	}
	if !json.Valid(line) {
		return &mcpError{Code: -32700, Message: "deskctl mcp: parse error: a line that is not JSON was skipped; send one JSON-RPC message per line"}
	}
	msgs := []json.RawMessage{line}
	if bytes.HasPrefix(bytes.TrimSpace(line), []byte("[")) {
		if err := json.Unmarshal(line, &msgs); err != nil || len(msgs) == 0 {
			return &mcpError{Code: -32600, Message: "deskctl mcp: invalid request: an empty or malformed batch was skipped"}
		}
	}
	for _, m := range msgs {
		if _, err := jsonrpc.DecodeMessage(m); err != nil {
			return &mcpError{Code: -32600, Message: "deskctl mcp: invalid request, skipped: " + err.Error()}
		}
	}
	return nil
}
