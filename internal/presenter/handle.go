package presenter

// Handle carries a presenter's definition out of the public package
// presenter to the root, which cannot read that package's unexported
// fields: presenter.Presenter[T] embeds it, under an unexported name, so
// its method is promoted without showing in go doc. Its one method is
// unexported, so only this package calls it (DefOf), and nobody can
// forge a Holder outside it.
type Handle struct{ def *Def }

// NewHandle returns the handle of def.
func NewHandle(def *Def) Handle { return Handle{def: def} }

func (h Handle) definition() *Def { return h.def }

// Holder is a value that carries a presenter's definition: what
// presenter.Any is, and only a type embedding a Handle implements it.
type Holder interface{ definition() *Def }

// DefOf returns the definition h carries, nil for a presenter not made by
// presenter.New (its zero value).
func DefOf(h Holder) *Def { return h.definition() }
