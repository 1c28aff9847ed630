package model

import "testing"

func TestConstructor(t *testing.T) {
	for _, tc := range []struct {
		pkg  Package
		recv string
		want string
	}{
		{Package{}, "", "Tools"},
		{Package{}, "Service", "ServiceTools"},
		{Package{}, "service", "serviceTools"},
		{Package{ToolsFunc: "AllTools"}, "", "AllTools"},
		{Package{ToolsFunc: "AllTools"}, "Service", "ServiceTools"},
		{Package{TypeToolsFunc: "*Toolset"}, "Service", "ServiceToolset"},
		{Package{TypeToolsFunc: "New*Tools"}, "Service", "NewServiceTools"},
		{Package{TypeToolsFunc: "New*Tools"}, "", "Tools"},
	} {
		if got := tc.pkg.Constructor(tc.recv); got != tc.want {
			t.Errorf("%+v.Constructor(%q) = %q, want %q", tc.pkg, tc.recv, got, tc.want)
		}
	}
}

func TestIsHelperName(t *testing.T) {
	for name, want := range map[string]bool{
		"toolgenTools":    true,
		"toolgenDispatch": true,
		"toolgenÉtat":     true,
		"toolgen":         false,
		"toolgen_x":       false,
		"toolgenlower":    false,
		"ToolgenTools":    false,
		"Tools":           false,
		"xtoolgenTools":   false,
	} {
		if got := IsHelperName(name); got != want {
			t.Errorf("IsHelperName(%q) = %v, want %v", name, got, want)
		}
	}
}

func TestWarningString(t *testing.T) {
	w := Warning{Pos: Pos{File: "a.go", Line: 3, Col: 4}, Msg: "m"}
	if got := w.String(); got != "a.go:3:4: warning: m" {
		t.Errorf("String = %q", got)
	}
	if got := (Warning{Msg: "m"}).String(); got != "warning: m" {
		t.Errorf("String without a position = %q", got)
	}
}

func TestSchemaURI(t *testing.T) {
	for dialect, want := range map[string]string{
		"":                  "",
		SchemaDialect202012: "https://json-schema.org/draft/2020-12/schema",
		"2019-09":           "",
	} {
		if got := (&Package{SchemaDialect: dialect}).SchemaURI(); got != want {
			t.Errorf("SchemaURI with SchemaDialect %q = %q, want %q", dialect, got, want)
		}
	}
}
