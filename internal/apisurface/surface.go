// Package apisurface renders the public API of a Go package as text, one
// declaration after another without their documentation, sorted, so that
// a golden file can hold it and a test fails on any change: vurb's public
// surface changes only by a reviewed edit of that file.
package apisurface

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/build"
	"go/parser"
	"go/printer"
	"go/token"
	"path/filepath"
	"slices"
	"strings"
)

// Surface is the public API of one package.
type Surface struct {
	Package string   // its name
	Names   int      // exported top-level names: constants, variables, types and functions
	Decls   []string // every exported declaration and method, sorted
}

// String is the surface as its golden file holds it.
func (s Surface) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "package %s: %d exported top-level names\n\n", s.Package, s.Names)
	for _, d := range s.Decls {
		b.WriteString(d)
		b.WriteString("\n")
	}
	return b.String()
}

// Of reads the package in dir as Go 1.26 builds it for linux/amd64 (the
// files for later releases, such as the go1.27 builder methods that
// mirror functions, are left out, so the surface reads the same under
// every toolchain).
func Of(dir string) (Surface, error) {
	ctx := build.Default
	ctx.GOOS, ctx.GOARCH, ctx.CgoEnabled = "linux", "amd64", false
	ctx.ReleaseTags = nil
	for v := 1; v <= 26; v++ {
		ctx.ReleaseTags = append(ctx.ReleaseTags, fmt.Sprintf("go1.%d", v))
	}
	ctx.ToolTags = nil
	bp, err := ctx.ImportDir(dir, 0)
	if err != nil {
		return Surface{}, err
	}
	fset := token.NewFileSet()
	s := Surface{Package: bp.Name}
	for _, name := range bp.GoFiles {
		f, err := parser.ParseFile(fset, filepath.Join(dir, name), nil, parser.SkipObjectResolution)
		if err != nil {
			return Surface{}, err
		}
		ast.FileExports(f)
		for _, d := range f.Decls {
			decls, names := render(fset, d)
			s.Decls = append(s.Decls, decls...)
			s.Names += names
		}
	}
	slices.Sort(s.Decls)
	return s, nil
}

// render prints d's exported parts, one string per name, and counts its
// top-level names.
func render(fset *token.FileSet, d ast.Decl) (decls []string, names int) {
	switch d := d.(type) {
	case *ast.FuncDecl:
		if d.Recv != nil && !exportedReceiver(d.Recv) {
			return nil, 0
		}
		d.Doc, d.Body = nil, nil
		if d.Recv == nil {
			names = 1
		}
		return []string{print(fset, d)}, names
	case *ast.GenDecl:
		if d.Tok == token.IMPORT {
			return nil, 0
		}
		for _, spec := range d.Specs {
			one := &ast.GenDecl{Tok: d.Tok, Specs: []ast.Spec{spec}}
			switch spec := spec.(type) {
			case *ast.TypeSpec:
				spec.Doc, spec.Comment = nil, nil
				names++
			case *ast.ValueSpec:
				spec.Doc, spec.Comment = nil, nil
				names += len(spec.Names)
			}
			decls = append(decls, print(fset, one))
		}
	}
	return decls, names
}

// exportedReceiver reports whether a method's receiver type is exported.
func exportedReceiver(recv *ast.FieldList) bool {
	if len(recv.List) == 0 {
		return false
	}
	t := recv.List[0].Type
	for {
		switch x := t.(type) {
		case *ast.StarExpr:
			t = x.X
		case *ast.IndexExpr:
			t = x.X
		case *ast.IndexListExpr:
			t = x.X
		case *ast.Ident:
			return x.IsExported()
		default:
			return false
		}
	}
}

// print formats node as gofmt would, its comments left out.
func print(fset *token.FileSet, node any) string {
	var b bytes.Buffer
	cfg := printer.Config{Mode: printer.UseSpaces | printer.TabIndent, Tabwidth: 8}
	if err := cfg.Fprint(&b, fset, node); err != nil {
		return fmt.Sprintf("<%v>", err)
	}
	return b.String()
}
