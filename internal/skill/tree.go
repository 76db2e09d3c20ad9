package skill

import (
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/vurb-go/vurb/skills"
)

// DeclareTree declares every skill under dir in fsys (see vurb.Skills),
// in path order, panicking, saying what to fix, on a mistake.
func (set *Set) DeclareTree(fsys fs.FS, dir string) []*Def {
	tree, err := readSkillTree(fsys, dir)
	if err != nil {
		panic(fmt.Sprintf("vurb: Skills(%q): %v", dir, err))
	}
	if len(tree) == 0 {
		panic(fmt.Sprintf("vurb: Skills(%q): no SKILL.md under it: each skill is a folder holding one", dir))
	}
	out := make([]*Def, 0, len(tree))
	for _, ts := range tree {
		s := &Def{path: ts.path}
		where := path.Join(dir, ts.dir, "SKILL.md")
		if why := checkSkillPath(ts.path); why != "" {
			panic(fmt.Sprintf("vurb: %s: skill %s", where, why))
		}
		if err := s.parse(string(ts.skillMD)); err != nil {
			panic(fmt.Sprintf("vurb: %s: %v", where, err))
		}
		s.addFile("SKILL.md", ts.skillMD)
		for _, f := range ts.files {
			if why := checkSkillFilePath(f.rel); why != "" {
				panic(fmt.Sprintf("vurb: %s: %s", path.Join(dir, ts.dir, f.rel), why))
			}
			s.addFile(f.rel, f.data)
		}
		set.addSkill(s)
		out = append(out, s)
	}
	return out
}

// treeSkill is a skill found in a tree: its folder, relative to the root
// Skills was given, and its own files (not those of skills nested in it).
type treeSkill struct {
	dir, path string
	skillMD   []byte
	files     []treeFile
}

type treeFile struct {
	rel  string // relative to the skill's folder
	data []byte
}

// readSkillTree reads every skill under dir, in path order, each file
// going to the innermost skill whose folder holds it. It reads no file
// larger than a skill may be.
func readSkillTree(fsys fs.FS, dir string) ([]*treeSkill, error) {
	type file struct {
		rel  string // relative to dir
		size int64
	}
	var files []file
	skillDirs := map[string]bool{}
	err := fs.WalkDir(fsys, dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel := strings.TrimPrefix(strings.TrimPrefix(p, dir), "/")
		if dir == "." {
			rel = p
		}
		if p != dir && strings.HasPrefix(d.Name(), ".") {
			if d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		switch {
		case d.IsDir():
			return nil
		case d.Type()&fs.ModeSymlink != 0:
			return fmt.Errorf("%s is a symbolic link: skills are served from regular files only", p)
		case !d.Type().IsRegular():
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		if info.Size() > skills.MaxBytes {
			return fmt.Errorf("%s is %d bytes: a whole skill may hold %d", p, info.Size(), skills.MaxBytes)
		}
		if d.Name() == "SKILL.md" {
			skillDirs[path.Dir(rel)] = true
		}
		files = append(files, file{rel, info.Size()})
		return nil
	})
	if err != nil {
		return nil, err
	}
	byDir := map[string]*treeSkill{}
	for d := range skillDirs {
		p := d
		if d == "." {
			if dir == "." {
				return nil, fmt.Errorf("a SKILL.md at the root has no path: put it in a folder named for the skill")
			}
			p = path.Base(dir)
		}
		byDir[d] = &treeSkill{dir: d, path: p}
	}
	for _, f := range files {
		owner := innermostSkill(byDir, path.Dir(f.rel))
		if owner == nil {
			continue // not in any skill's folder
		}
		data, err := fs.ReadFile(fsys, path.Join(dir, f.rel))
		if err != nil {
			return nil, err
		}
		rel := strings.TrimPrefix(f.rel, owner.dir+"/")
		if owner.dir == "." {
			rel = f.rel
		}
		if rel == "SKILL.md" {
			owner.skillMD = data
		} else {
			owner.files = append(owner.files, treeFile{rel, data})
		}
	}
	out := make([]*treeSkill, 0, len(byDir))
	for _, ts := range byDir {
		out = append(out, ts)
	}
	slices.SortFunc(out, func(x, y *treeSkill) int { return strings.Compare(x.path, y.path) })
	return out, nil
}

// innermostSkill is the skill whose folder is d or holds d most closely.
func innermostSkill(byDir map[string]*treeSkill, d string) *treeSkill {
	for {
		if ts, ok := byDir[d]; ok {
			return ts
		}
		if d == "." {
			return nil
		}
		d = path.Dir(d)
	}
}

// isText reports whether data reads as text: UTF-8 without NUL bytes.
func isText(data []byte) bool {
	return utf8.Valid(data) && !slices.Contains(data, 0)
}
