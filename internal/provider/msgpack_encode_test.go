package provider

import (
	"bytes"
	"context"
	"math/big"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// objectTypes are the value types of the provider's, every data source's and every resource's schema, by name.
func objectTypes(tb testing.TB) map[string]tftypes.Type {
	types := map[string]tftypes.Type{}
	for _, o := range objectSchemas(tb) {
		types[o.name] = o.typ().TerraformType(context.Background())
	}
	return types
}

// TestEncodeStateIsTftypes: encodeState writes what tftypes writes. On drawn values of every object's type (nulls,
// unknowns and dynamic values at any depth, numbers whole, fractional and too large for int64) both encodings
// decode to the same value (not always the one drawn: tftypes writes 1e300 as its decimal text, which reads back
// exactly), and they are the same bytes unless the value holds a map of several keys (tftypes
// writes those in Go's map order).
func TestEncodeStateIsTftypes(t *testing.T) {
	all := objectTypes(t)
	for _, typ := range collectionTypes() {
		all[typ.String()] = typ.TerraformType(context.Background())
	}
	for name, typ := range all {
		t.Run(name, func(t *testing.T) {
			r := rand.New(rand.NewPCG(uint64(len(name)), 13))
			same := 0
			for i := range 200 {
				v := typedValue(r, typ, i%2)
				cfg, cfgMsgPack := tftypes.NewValue(typ, nil), []byte(nil)
				if i%3 > 0 {
					// A state made of a configuration: some attributes its own (copied from its encoding), the others
					// replaced, as setReadState makes them; every third the configuration's encoding is not its own.
					cfg = typedValue(r, typ, 1)
					v = stateOf(r, typ, cfg, v)
					if dv, err := tfprotov6.NewDynamicValue(typ, cfg); err == nil {
						cfgMsgPack = dv.MsgPack
					}
					if i%6 == 5 {
						cfgMsgPack = []byte{0x81, 0xa1, 'x', 0xc0}
					}
				}
				got, gerr := encodeState(typ, v, cfg, cfgMsgPack)
				want, werr := tfprotov6.NewDynamicValue(typ, v)
				if gerr != nil || werr != nil {
					t.Fatalf("draw %d: %v, tftypes %v", i, gerr, werr)
				}
				gv, gerr := got.Unmarshal(typ)
				wv, werr := want.Unmarshal(typ)
				if gerr != nil || werr != nil || !gv.Equal(wv) {
					t.Fatalf("draw %d: decoded %v (%v), tftypes' %v (%v)", i, gv, gerr, wv, werr)
				}
				if !multiKeyMap(v) {
					if !bytes.Equal(got.MsgPack, want.MsgPack) {
						t.Fatalf("draw %d: %x, tftypes %x", i, got.MsgPack, want.MsgPack)
					}
					same++
				}
			}
			if same < 20 {
				t.Errorf("only %d draws compared byte for byte", same)
			}
		})
	}
	// Numbers of every encoding, at the root of a number-typed value.
	huge, _ := new(big.Float).SetString("123456789012345678901234567890")
	for _, n := range []*big.Float{big.NewFloat(0), big.NewFloat(-1), big.NewFloat(1 << 40), big.NewFloat(0.25), huge,
		new(big.Float).SetInf(false), new(big.Float).SetInf(true), new(big.Float).SetPrec(200).Quo(big.NewFloat(1), big.NewFloat(3))} {
		v := tftypes.NewValue(tftypes.Number, n)
		got, _ := encodeState(tftypes.Number, v, v, nil)
		want, _ := tfprotov6.NewDynamicValue(tftypes.Number, v)
		if !bytes.Equal(got.MsgPack, want.MsgPack) {
			t.Errorf("%v: %x, tftypes %x", n, got.MsgPack, want.MsgPack)
		}
	}
}

// multiKeyMap reports whether v holds a known map of two keys or more.
func multiKeyMap(v tftypes.Value) bool {
	found := false
	_ = tftypes.Walk(v, func(_ *tftypes.AttributePath, x tftypes.Value) (bool, error) {
		if x.Type() != nil && x.Type().Is(tftypes.Map{}) && x.IsKnown() && !x.IsNull() {
			var m map[string]tftypes.Value
			if x.As(&m) == nil && len(m) > 1 {
				found = true
			}
		}
		return !found, nil
	})
	return found
}

// stateOf is the configuration cfg with each top-level attribute, at random, kept (the configuration's own value)
// or taken from other, a value of the same type; other itself when either is not a known object.
func stateOf(r *rand.Rand, typ tftypes.Type, cfg, other tftypes.Value) tftypes.Value {
	var cm, om map[string]tftypes.Value
	if _, ok := typ.(tftypes.Object); !ok || !cfg.IsKnown() || cfg.IsNull() || !other.IsKnown() || other.IsNull() || cfg.As(&cm) != nil || other.As(&om) != nil {
		return other
	}
	vals := map[string]tftypes.Value{}
	for k, x := range cm {
		vals[k] = x
		if r.IntN(3) == 0 {
			vals[k] = om[k]
		}
	}
	return tftypes.NewValue(typ, vals)
}

// FuzzReadConversions draws a value of one object's type from the fuzzer's seed and checks the read's own
// conversions against the framework's and tftypes': valueFrom against ValueFromTerraform, encodeState (with a
// configuration drawn beside it) against NewDynamicValue.
func FuzzReadConversions(f *testing.F) {
	types := objectTypes(f)
	names := make([]string, 0, len(types))
	for n := range types {
		names = append(names, n)
	}
	slices.Sort(names)
	ctx := context.Background()
	attrTypes := map[string]attr.Type{}
	for _, o := range objectSchemas(f) {
		if o.kind == "data" {
			attrTypes[o.name] = o.typ()
		}
	}
	for i := range 8 {
		f.Add(uint64(i), uint8(i))
	}
	f.Fuzz(func(t *testing.T, seed uint64, which uint8) {
		name := names[int(which)%len(names)]
		typ := types[name]
		r := rand.New(rand.NewPCG(seed, uint64(which)))
		v, cfg := typedValue(r, typ, 0), typedValue(r, typ, 1)
		v = stateOf(r, typ, cfg, v)
		var cfgMsgPack []byte
		if dv, err := tfprotov6.NewDynamicValue(typ, cfg); err == nil {
			cfgMsgPack = dv.MsgPack
		}
		got, gerr := encodeState(typ, v, cfg, cfgMsgPack)
		want, werr := tfprotov6.NewDynamicValue(typ, v)
		if (gerr == nil) != (werr == nil) {
			t.Fatalf("%s: %v, tftypes %v", name, gerr, werr)
		}
		if gerr == nil {
			gv, err1 := got.Unmarshal(typ)
			wv, err2 := want.Unmarshal(typ)
			if err1 != nil || err2 != nil || !gv.Equal(wv) {
				t.Fatalf("%s: decoded %v (%v), tftypes' %v (%v)", name, gv, err1, wv, err2)
			}
		}
		if at, ok := attrTypes[name]; ok {
			a, aerr := valueFrom(ctx, at, v)
			b, berr := at.ValueFromTerraform(ctx, v)
			if (aerr == nil) != (berr == nil) || !reflect.DeepEqual(a, b) {
				t.Fatalf("%s: valueFrom %v (%v), the framework %v (%v)", name, a, aerr, b, berr)
			}
		}
	})
}
