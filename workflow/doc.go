// Package workflow declares the state machines that gate an app's
// actions: a checkout, an approval, a deployment, where pay before
// checkout or deploy before approve must be impossible, not merely
// discouraged by a description.
//
// A Machine names its states, the events that move an instance between
// them, the state every instance starts in and those it ends in. vurb
// binds actions to it: an action runs only in the states it is bound to,
// and a successful call may fire an event that moves the instance on.
package workflow
