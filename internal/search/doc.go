// Package search ranks an app's actions for a query.
package search
