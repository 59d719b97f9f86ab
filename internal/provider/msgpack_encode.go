package provider

import (
	"bytes"
	"errors"
	"maps"
	"math"
	"math/big"
	"reflect"
	"slices"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/vmihailenco/msgpack/v5"
)

// encodeState is tfprotov6.NewDynamicValue(t, v): v in Terraform's MessagePack encoding, written here for speed.
//
// terraform-plugin-go's encoder builds an attribute path and a new string value for every attribute and element
// it writes (for errors it reports only on values that do not match their type), which made encoding the state
// of a read of 1,000 workloads 43 ms (issue 21). This writes the same encoding with the same msgpack library: null
// as nil, unknown as the extension tftypes writes, numbers as an int when whole and within int64, else a float64
// when exact, else their decimal text, lists, sets and tuples as arrays, maps and objects as maps (object
// attributes in name order as tftypes writes them, map keys sorted where tftypes takes Go's map order), and
// dynamically typed values, which kubefit's states rarely hold, with tftypes' own encoder. A value it cannot
// write (one that does not match its type) is left to NewDynamicValue, errors included.
//
// A data source's state is mostly its configuration (setReadState): a top-level attribute of the state that is
// the configuration's own value (the same list, map or object, not merely an equal one) is copied from the
// request's encoding of the configuration, cfgMsgPack, instead of being written again. TestEncodeStateIsTftypes
// decodes both encodings of drawn values of every object's type and compares them.
func encodeState(t tftypes.Type, v, cfg tftypes.Value, cfgMsgPack []byte) (tfprotov6.DynamicValue, error) {
	var buf bytes.Buffer
	enc := msgpack.NewEncoder(&buf)
	if writeState(enc, t, v, cfg, cfgMsgPack) != nil {
		return tfprotov6.NewDynamicValue(t, v)
	}
	return tfprotov6.DynamicValue{MsgPack: buf.Bytes()}, nil
}

// writeState writes the state v, copying the attributes it shares with the configuration cfg from the
// configuration's encoding cfgMsgPack (encodeState).
func writeState(enc *msgpack.Encoder, t tftypes.Type, v, cfg tftypes.Value, cfgMsgPack []byte) error {
	ot, ok := t.(tftypes.Object)
	if !ok || cfgMsgPack == nil || !v.IsKnown() || v.IsNull() || !cfg.IsKnown() || cfg.IsNull() || !cfg.Type().Equal(t) {
		return writeMsgPack(enc, t, v)
	}
	encoded, ok := attributeEncodings(cfgMsgPack)
	var vals, configured map[string]tftypes.Value
	if !ok || v.As(&vals) != nil || cfg.As(&configured) != nil {
		return writeMsgPack(enc, t, v)
	}
	return writeEntries(enc, slices.Sorted(maps.Keys(ot.AttributeTypes)), vals, attributeType(ot), func(k string, x tftypes.Value) []byte {
		if raw, ok := encoded[k]; ok && sameValue(x, configured[k]) {
			return raw
		}
		return nil
	})
}

// writeEntries writes a MessagePack map of the keys, in their order, each with its value in vals written as a
// value of type typeOf(k), or, where copied gives bytes for it, as those bytes.
func writeEntries(enc *msgpack.Encoder, keys []string, vals map[string]tftypes.Value, typeOf func(string) tftypes.Type,
	copied func(string, tftypes.Value) []byte) error {
	if err := enc.EncodeMapLen(len(keys)); err != nil {
		return err
	}
	for _, k := range keys {
		x, ok := vals[k]
		if !ok {
			return errNoValue
		}
		if err := enc.EncodeString(k); err != nil {
			return err
		}
		if copied != nil {
			if raw := copied(k, x); raw != nil {
				if err := enc.Encode(rawMsgPack(raw)); err != nil {
					return err
				}
				continue
			}
		}
		if err := writeMsgPack(enc, typeOf(k), x); err != nil {
			return err
		}
	}
	return nil
}

// attributeType is the type of an attribute of ot, by name.
func attributeType(ot tftypes.Object) func(string) tftypes.Type {
	return func(k string) tftypes.Type { return ot.AttributeTypes[k] }
}

// attributeEncodings splits the encoding of an object into its attributes' encodings, by name; false when b is
// not one object map with string keys and nothing after it.
func attributeEncodings(b []byte) (map[string][]byte, bool) {
	r := bytes.NewReader(b) // a ByteScanner: the decoder reads it without buffering ahead
	dec := msgpack.NewDecoder(r)
	n, err := dec.DecodeMapLen()
	if err != nil || n < 0 {
		return nil, false
	}
	out := make(map[string][]byte, n)
	for range n {
		k, err := dec.DecodeString()
		if err != nil {
			return nil, false
		}
		start := len(b) - r.Len()
		if dec.Skip() != nil {
			return nil, false
		}
		out[k] = b[start : len(b)-r.Len()]
	}
	return out, r.Len() == 0
}

// sameValue reports whether a and b are the same value: of equal types, both unknown, both null, the same
// primitive, or the same list, set, tuple, map or object (the same elements, not merely equal ones).
func sameValue(a, b tftypes.Value) bool {
	if a.Type() == nil || b.Type() == nil || !a.Type().Equal(b.Type()) || a.IsKnown() != b.IsKnown() {
		return false
	}
	if !a.IsKnown() || a.IsNull() || b.IsNull() {
		return a.IsNull() == b.IsNull()
	}
	var ae, be []tftypes.Value
	if a.As(&ae) == nil && b.As(&be) == nil {
		return len(ae) == len(be) && (len(ae) == 0 || &ae[0] == &be[0])
	}
	var am, bm map[string]tftypes.Value
	if a.As(&am) == nil && b.As(&bm) == nil {
		return reflect.ValueOf(am).UnsafePointer() == reflect.ValueOf(bm).UnsafePointer()
	}
	return a.Equal(b)
}

// rawMsgPack is bytes already in MessagePack, written as they are.
type rawMsgPack []byte

func (r rawMsgPack) MarshalMsgpack() ([]byte, error) { return r, nil }

// msgPackUnknown is the encoding of an unknown value: extension 0 of one zero byte (tftypes' msgPackUnknownVal).
var msgPackUnknown = rawMsgPack{0xd4, 0, 0}

// writeMsgPack writes v, of type t, as marshalMsgPack in tftypes writes it.
func writeMsgPack(enc *msgpack.Encoder, t tftypes.Type, v tftypes.Value) error {
	if t.Is(tftypes.DynamicPseudoType) || v.Type() == nil || v.Type().Is(tftypes.DynamicPseudoType) {
		return writeWithTftypes(enc, t, v)
	}
	if !v.IsKnown() {
		return enc.Encode(msgPackUnknown)
	}
	if v.IsNull() {
		return enc.EncodeNil()
	}
	switch tt := t.(type) {
	case tftypes.List:
		return writeElements(enc, tt.ElementType, v)
	case tftypes.Set:
		return writeElements(enc, tt.ElementType, v)
	case tftypes.Map:
		var m map[string]tftypes.Value
		if err := v.As(&m); err != nil {
			return err
		}
		return writeEntries(enc, slices.Sorted(maps.Keys(m)), m, func(string) tftypes.Type { return tt.ElementType }, nil)
	case tftypes.Object:
		var m map[string]tftypes.Value
		if err := v.As(&m); err != nil {
			return err
		}
		return writeEntries(enc, slices.Sorted(maps.Keys(tt.AttributeTypes)), m, attributeType(tt), nil)
	case tftypes.Tuple:
		return writeWithTftypes(enc, t, v)
	}
	switch {
	case t.Is(tftypes.String):
		var s string
		if err := v.As(&s); err != nil {
			return err
		}
		return enc.EncodeString(s)
	case t.Is(tftypes.Bool):
		var b bool
		if err := v.As(&b); err != nil {
			return err
		}
		return enc.EncodeBool(b)
	case t.Is(tftypes.Number):
		var n big.Float
		if err := v.As(&n); err != nil {
			return err
		}
		return writeNumber(enc, &n)
	}
	return writeWithTftypes(enc, t, v)
}

// errNoValue is an object value without one of its type's attributes.
var errNoValue = errors.New("an object value lacks an attribute of its type")

// writeElements writes a list's or set's elements as an array.
func writeElements(enc *msgpack.Encoder, et tftypes.Type, v tftypes.Value) error {
	var elems []tftypes.Value
	if err := v.As(&elems); err != nil {
		return err
	}
	if err := enc.EncodeArrayLen(len(elems)); err != nil {
		return err
	}
	for _, x := range elems {
		if err := writeMsgPack(enc, et, x); err != nil {
			return err
		}
	}
	return nil
}

// writeNumber is tftypes' marshalMsgPackNumber.
func writeNumber(enc *msgpack.Encoder, n *big.Float) error {
	if n.IsInf() {
		return enc.EncodeFloat64(math.Inf(n.Sign()))
	}
	if iv, acc := n.Int64(); acc == big.Exact {
		return enc.EncodeInt(iv)
	}
	if fv, acc := n.Float64(); acc == big.Exact && !n.IsInt() {
		return enc.EncodeFloat64(fv)
	}
	return enc.EncodeString(n.Text('f', -1))
}

// writeWithTftypes writes v with tftypes' own encoder.
func writeWithTftypes(enc *msgpack.Encoder, t tftypes.Type, v tftypes.Value) error {
	b, err := v.MarshalMsgPack(t) //nolint:staticcheck // the encoding NewDynamicValue uses
	if err != nil {
		return err
	}
	return enc.Encode(rawMsgPack(b))
}
