package model_test

import "reflect"

func deepEqual(a, b any) bool { return reflect.DeepEqual(a, b) }
