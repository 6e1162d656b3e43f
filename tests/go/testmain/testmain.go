// Package testmain has a TestMain that its fuzz test depends on.
package testmain
