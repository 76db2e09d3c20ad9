package vurb

import (
	"fmt"
	"slices"

	"github.com/vurb-go/vurb/model"
)

// modelCategories adds the categories reachable from the app's tools,
// prompts and resources, in declaration order, each with the members the
// view kept; a category left with no member and no child that has one is
// not added, so a filtered model names nothing it hides.
func (a *App) modelCategories(b *model.Builder, n modelNodes) {
	var all []*Category
	reach := func(cs []*Category) {
		for _, c := range cs {
			for x := c; x != nil; x = x.parent {
				if !slices.Contains(all, x) {
					all = append(all, x)
				}
			}
		}
	}
	for _, t := range a.tools {
		reach(t.categories)
	}
	for _, p := range a.prompts {
		reach(p.categories)
	}
	for _, r := range a.resources {
		reach(r.categories)
	}
	slices.SortFunc(all, func(x, y *Category) int { return int(x.seq - y.seq) })
	for _, c := range all {
		c.freeze()
		if c.parent == nil {
			for _, t := range a.tools {
				if t.name == c.name {
					panic(fmt.Sprintf("vurb: category %q has the name of tool %q: a fully qualified name names one group; rename the category", c.name, t.name))
				}
			}
		}
	}
	groups := map[*Category]*model.Group{}
	for _, c := range all {
		leaves := c.leaves(n)
		if len(leaves) == 0 && !c.anyChild(all, n) {
			continue
		}
		var parent *model.Group
		if c.parent != nil {
			parent = groups[c.parent]
		}
		g := b.Group(parent, model.KindCategory, model.Info{Name: c.name, Title: c.title, Description: c.description,
			Meta: c.metaCopy(), Icons: c.icons})
		groups[c] = g
		b.Join(g, leaves...)
	}
}

// leaves are the model's leaves for the category's members that the view
// kept: a tool or group stands for its actions.
func (c *Category) leaves(n modelNodes) []model.Leaf {
	var out []model.Leaf
	add := func(d *ActionDef) {
		if act := n.actions[d]; act != nil {
			out = append(out, act)
		}
	}
	for _, t := range c.tools {
		for _, d := range t.allActions() {
			add(d)
		}
	}
	for _, g := range c.groups {
		for _, d := range g.actions {
			add(d)
		}
	}
	for _, d := range c.actions {
		add(d)
	}
	for _, p := range c.prompts {
		if mp := n.prompts[p]; mp != nil {
			out = append(out, mp)
		}
	}
	for _, r := range c.resources {
		if mr := n.resources[r]; mr != nil {
			out = append(out, mr)
		}
	}
	return out
}

// anyChild reports whether a descendant of c among all has a member left.
func (c *Category) anyChild(all []*Category, n modelNodes) bool {
	for _, ch := range c.children {
		if slices.Contains(all, ch) && (len(ch.leaves(n)) > 0 || ch.anyChild(all, n)) {
			return true
		}
	}
	return false
}
