package describe

// Describer is the set of pure functions that write the descriptions of an
// app's tools: Flat for an action listed as its own tool, Grouped (or TOON,
// for a tool that asks for a TOON description) for a tool listed as one.
// Each is called once per tool at build time. A nil function falls back to
// Default's, so an app replaces only what it wants and can wrap the
// default:
//
//	d := describe.Default()
//	d.Flat = func(tool string, a describe.Action) string {
//		return describe.Flat(tool, a) + " (beta)"
//	}
type Describer struct {
	Flat    func(tool string, a Action) string
	Grouped func(t Tool) string
	TOON    func(t Tool) (string, error)
}

// Default is vurb's own Describer: Flat, Grouped and TOON.
func Default() Describer { return Describer{Flat: Flat, Grouped: Grouped, TOON: TOON} }

// OrDefault returns d with Default's function in place of each nil one.
func (d Describer) OrDefault() Describer {
	if d.Flat == nil {
		d.Flat = Flat
	}
	if d.Grouped == nil {
		d.Grouped = Grouped
	}
	if d.TOON == nil {
		d.TOON = TOON
	}
	return d
}
