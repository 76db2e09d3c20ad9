package presenter

import (
	"maps"
	"slices"

	"github.com/vurb-go/vurb/model"
)

// Model is what the app's model (and so its manifest) says of how the
// action's results are presented: the presented types its result can
// hold, and the places of the result redacted, omitted or cut, as paths
// in its JSON. A type that holds itself is followed once along each path.
// It is nil when nothing presents the results, and for a result of
// interface type, whose places are known only per value.
func (pa *Action) Model() *model.Presentation {
	if pa == nil || pa.root == nil {
		return nil
	}
	p := &model.Presentation{Limits: map[string]int{}}
	presenters := map[string]bool{}
	on := map[*shape]bool{} // the shapes on the path walked: a cycle ends there
	var walk func(sh *shape, path []string)
	walk = func(sh *shape, path []string) {
		if sh == nil || on[sh] {
			return
		}
		on[sh] = true
		defer delete(on, sh)
		if sh.pres != nil {
			presenters[sh.pres.typ.String()] = true
		}
		switch sh.kind {
		case shapeStruct:
			for _, f := range sh.fields {
				at := append(slices.Clone(path), f.name)
				switch {
				case f.omitted:
					p.Omitted = append(p.Omitted, pathString(at))
				case f.redacted:
					p.Redacted = append(p.Redacted, pathString(at))
				default:
					walk(f.elem, at)
				}
			}
		case shapePointer:
			walk(sh.elem, path)
		case shapeSlice, shapeArray:
			if sh.limit != nil {
				p.Limits[pathString(path)] = sh.limit.limit
			}
			walk(sh.elem, append(slices.Clone(path), "[]"))
		case shapeMap:
			walk(sh.elem, append(slices.Clone(path), "{}"))
		}
	}
	walk(pa.root, nil)
	p.Presenters = slices.Sorted(maps.Keys(presenters))
	slices.Sort(p.Redacted)
	slices.Sort(p.Omitted)
	p.Redacted, p.Omitted = slices.Compact(p.Redacted), slices.Compact(p.Omitted)
	if len(p.Limits) == 0 {
		p.Limits = nil
	}
	if len(p.Presenters)+len(p.Redacted)+len(p.Omitted)+len(p.Limits) == 0 {
		return nil
	}
	return p
}
