package toon

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"unicode/utf8"
)

// FromJSON converts JSON text to TOON. Unlike a round trip through
// encoding/json and a map, it keeps object keys in the order of the text
// and numbers exactly as written (in canonical form), so large integers and
// long decimals are not rounded. When a key repeats, the last value wins at
// the position of the first. Options: WithDelimiter, WithIndent,
// WithKeyFolding, WithFlattenDepth.
func FromJSON(data []byte, opts ...Option) ([]byte, error) {
	v, err := parseJSON(data)
	if err != nil {
		return nil, err
	}
	return encode(&v, buildOptions(opts), len(data)), nil
}

// parseJSON reads one JSON value into the ordered model.
func parseJSON(data []byte) (value, error) {
	if v, ok := parseJSONScalar(data); ok {
		return v, nil
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	v, err := readJSON(dec)
	if err != nil {
		return value{}, jsonError(err)
	}
	if _, err := dec.Token(); err != io.EOF {
		if err == nil {
			err = errors.New("unexpected data after top-level value")
		}
		return value{}, jsonError(err)
	}
	return v, nil
}

func jsonError(err error) error {
	if errors.Is(err, io.EOF) {
		err = io.ErrUnexpectedEOF
	}
	return fmt.Errorf("toon: invalid JSON: %w", err)
}

// readJSON reads the value starting at the next token.
func readJSON(dec *json.Decoder) (value, error) {
	tok, err := dec.Token()
	if err != nil {
		return value{}, err
	}
	switch t := tok.(type) {
	case nil:
		return value{}, nil
	case bool:
		return boolValue(t), nil
	case string:
		return stringValue(t), nil
	case json.Number:
		return value{kind: kindNumber, str: canonicalNumber(string(t))}, nil
	case json.Delim:
		if t == '[' {
			arr := value{kind: kindArray, kids: []value{}}
			for dec.More() {
				v, err := readJSON(dec)
				if err != nil {
					return value{}, err
				}
				arr.kids = append(arr.kids, v)
			}
			_, err := dec.Token() // ]
			return arr, err
		}
		var obj objectBuilder
		for dec.More() {
			tok, err := dec.Token()
			if err != nil {
				return value{}, err
			}
			m, err := readJSON(dec)
			if err != nil {
				return value{}, err
			}
			m.key = tok.(string)
			obj.set(m)
		}
		_, err := dec.Token() // }
		return obj.value(), err
	}
	return value{}, fmt.Errorf("unexpected token %v", tok)
}

// parseJSONScalar reads the common single-token documents (what
// json.Marshaler methods such as time.Time's return) without a decoder.
func parseJSONScalar(data []byte) (value, bool) {
	s := string(bytes.TrimSpace(data))
	switch {
	case s == "null":
		return value{}, true
	case s == "true":
		return boolValue(true), true
	case s == "false":
		return boolValue(false), true
	case isNumber(s):
		return value{kind: kindNumber, str: canonicalNumber(s)}, true
	case len(s) >= 2 && s[0] == '"' && s[len(s)-1] == '"':
		inner := s[1 : len(s)-1]
		for i := 0; i < len(inner); i++ {
			if c := inner[i]; c < 0x20 || c == '"' || c == '\\' {
				return value{}, false
			}
		}
		if !utf8.ValidString(inner) {
			return value{}, false
		}
		return stringValue(inner), true
	}
	return value{}, false
}
