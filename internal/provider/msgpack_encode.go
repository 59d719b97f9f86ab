package provider

import (
	"bytes"
	"errors"
	"math"
	"math/big"
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
// write (one that does not match its type) is left to NewDynamicValue, errors included. TestEncodeStateIsTftypes
// decodes both encodings of drawn values of every object's type and compares them.
func encodeState(t tftypes.Type, v tftypes.Value) (tfprotov6.DynamicValue, error) {
	var buf bytes.Buffer
	enc := msgpack.NewEncoder(&buf)
	if writeMsgPack(enc, t, v) != nil {
		return tfprotov6.NewDynamicValue(t, v)
	}
	return tfprotov6.DynamicValue{MsgPack: buf.Bytes()}, nil
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
		if err := enc.EncodeMapLen(len(m)); err != nil {
			return err
		}
		keys := make([]string, 0, len(m))
		for k := range m {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			if err := enc.EncodeString(k); err != nil {
				return err
			}
			if err := writeMsgPack(enc, tt.ElementType, m[k]); err != nil {
				return err
			}
		}
		return nil
	case tftypes.Object:
		var m map[string]tftypes.Value
		if err := v.As(&m); err != nil {
			return err
		}
		keys := make([]string, 0, len(tt.AttributeTypes))
		for k := range tt.AttributeTypes {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		if err := enc.EncodeMapLen(len(keys)); err != nil {
			return err
		}
		for _, k := range keys {
			x, ok := m[k]
			if !ok {
				return errNoValue
			}
			if err := enc.EncodeString(k); err != nil {
				return err
			}
			if err := writeMsgPack(enc, tt.AttributeTypes[k], x); err != nil {
				return err
			}
		}
		return nil
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
