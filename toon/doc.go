// Package toon encodes and decodes TOON (Token-Oriented Object Notation,
// spec v3.3), a line-oriented form of the JSON data model that declares the
// shape of uniform arrays once and drops most braces and quotes. vurb uses
// it to hand structured data to models in fewer tokens than JSON.
//
// The API follows encoding/json: Marshal turns Go values into TOON with the
// same field names and hooks as json.Marshal, and Unmarshal fills Go values
// from TOON with the same rules as json.Unmarshal. FromJSON and ToJSON
// convert between the two texts and keep object key order.
//
// Behaviour the spec leaves to implementations:
//
//   - Numbers are kept as exact decimal text end to end (arbitrary
//     precision, no rounding, no number is ever turned into a string). They
//     are written in canonical form: plain decimal for 1e-6 <= |n| < 1e21
//     and for 0, otherwise the shortest exponent form such as 1e-7 or
//     1.5e+21. Unmarshal then applies encoding/json's rules to the text.
//   - Go values map to the JSON data model as in encoding/json, except that
//     NaN and ±Inf become null instead of an error (spec §3).
//   - Invalid UTF-8 is replaced by U+FFFD, byte by byte, in both directions.
//   - A list item "- []" decodes as an empty array; encoders write "- [0]:".
//   - Non-strict decoding (WithStrict(false)) rounds indentation down to
//     whole levels and counts a tab in indentation as one level.
//   - Input lines may end in CRLF; the CR is dropped.
package toon
