package vurb
