//go:build !race

package vurb_test

const raceEnabled = false
