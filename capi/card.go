package main

import (
	"encoding/json"
	"reflect"
	"strings"

	"github.com/transparse/transparse/modelfmt"
)

// cardJSON renders the model card as a JSON object whose keys are the
// card's msgpack field names (the names of the model file), so that the C
// and Python views of a card match the file and follow new fields
// automatically.
func cardJSON(c modelfmt.Card) (string, error) {
	v := reflect.ValueOf(c)
	t := v.Type()
	fields := make([]string, 0, t.NumField())
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		if !f.IsExported() {
			continue
		}
		name := strings.Split(f.Tag.Get("msgpack"), ",")[0]
		if name == "-" {
			continue
		}
		if name == "" {
			name = strings.ToLower(f.Name)
		}
		k, _ := json.Marshal(name)
		val, err := json.Marshal(v.Field(i).Interface())
		if err != nil {
			return "", err
		}
		fields = append(fields, string(k)+":"+string(val))
	}
	return "{" + strings.Join(fields, ",") + "}", nil
}
