package hostile

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/toolgen/toolgen/runtime"
)

// The secrets of the valid put_secret arguments below. Every secret holds "S3CR3T" except
// the card number, the addresses and the one-time code, which are checked as they are.
var validSecrets = []string{"S3CR3T", "4111 1111 1111 1111", "4111111111111111", "10.1.2.3", "192.0.2.7", "918273"}

const validLogin = `{"username":"ada","password":"S3CR3T-login-pw","otp":918273,"server":"192.0.2.7"}`

// validStore returns put_secret arguments holding every kind of sensitive value, with
// login, recoveryCodes and headers written as given.
func validStore(login, codes, headers string) string {
	return `{"name":"api","secret":"S3CR3T-plain-value","clientIp":"10.1.2.3","card":"4111 1111 1111 1111",` +
		`"login":` + login + `,"recoveryCodes":` + codes + `,"headers":` + headers +
		`,"expiresAt":"2030-01-02T03:04:05Z"}`
}

const (
	validCodes   = `["S3CR3T-rc-1","S3CR3T-rc-2"]`
	validHeaders = `{"X-Api-Key":"S3CR3T-header"}`
)

// TestSensitiveValidFormsRedacted (class 3b): a valid call carrying sensitive values in
// every form the decoder accepts (plain, an object or an array sent as a JSON string, the
// whole arguments encoded twice, unicode escapes) runs, and no secret reaches the model's
// text, the events (argument logging on), the slog lines, the approval prompt or Redact.
func TestSensitiveValidFormsRedacted(t *testing.T) {
	plain := validStore(validLogin, validCodes, validHeaders)
	loginString := validStore(jsonString(validLogin), validCodes, validHeaders)
	listsAsStrings := validStore(validLogin, jsonString(validCodes), jsonString(validHeaders))
	everyStrings := validStore(jsonString(validLogin), jsonString(validCodes), jsonString(validHeaders))
	cases := []struct {
		name    string
		args    string
		secrets []string
	}{
		{"plain", plain, nil},
		{"login as a JSON string", loginString, nil},
		{"recoveryCodes and headers as JSON strings", listsAsStrings, nil},
		{"whole arguments encoded twice", jsonString(plain), nil},
		{"encoded twice, login as a string inside", jsonString(loginString), nil},
		{"encoded twice, every list as a string inside", jsonString(everyStrings), nil},
		{"escaped secret", strings.Replace(plain, `"S3CR3T-plain-value"`, `"\u0053\u0033\u0043R3T-escaped-\u0076alue"`, 1),
			[]string{"R3T-escaped", `\u0053\u0033\u0043R3T`}},
		{"escaped property name", strings.Replace(plain, `"secret":"S3CR3T-plain-value"`, `"\u0073ecret":"S3CR3T-plain-value"`, 1), nil},
		{"escaped nested property name", validStore(`{"username":"ada","p\u0061ssword":"S3CR3T-login-pw"}`, validCodes, validHeaders), nil},
		{"null optionals", validStore(validLogin, "null", "null"), nil},
		{"case-folded property name, if accepted", strings.Replace(plain, `"secret":"S3CR3T-plain-value"`, `"secret":"S3CR3T-plain-value","SECRET":"S3CR3T-folded"`, 1), nil},
		{"white space everywhere", " \n\t" + strings.ReplaceAll(plain, ",", " ,\n ") + " \r\n", nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := newCapture(t, true)
			res := callDone(t, c.tools, context.Background(), "put_secret", []byte(tc.args))
			if res.IsError && strings.HasSuffix(tc.name, ", if accepted") {
				t.Logf("refused: %s", res.Text())
				for _, s := range c.surfaces(t, "put_secret", []byte(tc.args), res, false) {
					if strings.Contains(s.text, "S3CR3T-folded") {
						t.Errorf("the value of an unknown property %q, which the decoder itself takes for a misspelt %q, is logged in clear (%s): %s",
							"SECRET", "secret", s.name, clip(s.text, 400))
					}
				}
				assertNoLeak(t, c.surfaces(t, "put_secret", []byte(tc.args), res, false), append(validSecrets, tc.secrets...)...)
				return
			}
			if res.IsError {
				t.Fatalf("valid arguments refused: %s\nargs: %s", res.Text(), tc.args)
			}
			if len(c.redacted) != 1 {
				t.Fatalf("the approver was asked %d times, want 1", len(c.redacted))
			}
			if len(c.events) != 1 || c.events[0].Arguments == nil {
				t.Fatalf("events %+v: want one, with arguments", c.events)
			}
			if !json.Valid(c.redacted[0]) {
				t.Errorf("Redacted() is not JSON: %s", c.redacted[0])
			}
			if !strings.Contains(string(c.redacted[0]), runtime.Redacted) {
				t.Errorf("Redacted() shows no %s: %s", runtime.Redacted, c.redacted[0])
			}
			if got, ok := c.vault.Stored("api"); !ok || got.Secret == "" || got.Login.Password != "S3CR3T-login-pw" {
				t.Errorf("the tool got %+v", got)
			}
			assertNoLeak(t, c.surfaces(t, "put_secret", []byte(tc.args), res, false), append(validSecrets, tc.secrets...)...)
		})
	}
}

// TestSensitiveInvalidFormsNeverEchoed (class 3a): invalid calls whose violations are at
// or below sensitive properties, in every form (a wrong type, a TextUnmarshaler that
// quotes its input, an object sent as a string, the arguments encoded twice, map keys,
// names chosen by the arguments below a sensitive property, duplicates, syntax errors
// right after a sensitive name), are refused without the value reaching the model text,
// Result.Err, the MCP result, the events, the slog lines or Redact.
func TestSensitiveInvalidFormsNeverEchoed(t *testing.T) {
	withField := func(field, value string) string {
		// plain with one property replaced (or added, when absent).
		var m map[string]json.RawMessage
		if err := json.Unmarshal([]byte(validStore(validLogin, validCodes, validHeaders)), &m); err != nil {
			panic(err)
		}
		m[field] = json.RawMessage(value)
		b, err := json.Marshal(m)
		if err != nil {
			panic(err)
		}
		return string(b)
	}
	const pi = "31415926535"
	cases := []struct {
		name     string
		args     string
		path     string // the path the violation must name ("" to not check)
		secrets  []string
		arguable bool // the expectation reads the contract broadly
	}{
		{"secret too short", withField("secret", `"ZQ9"`), "/secret", []string{"ZQ9"}, false},
		{"secret too long", withField("secret", jsonString("S3CR3T"+strings.Repeat("x", 300))), "/secret", nil, false},
		{"secret a number", withField("secret", pi), "/secret", []string{pi}, false},
		{"secret a float", withField("secret", "2.718281828e5"), "/secret", []string{"2.718281828", "271828"}, false},
		{"secret true", withField("secret", `true`), "/secret", []string{"(got true)"}, false},
		{"secret an object", withField("secret", `{"k":"S3CR3T-in-object"}`), "/secret", nil, false},
		{"secret an array", withField("secret", `["S3CR3T-in-array"]`), "/secret", nil, false},
		{"secret invalid UTF-8", strings.Replace(validStore(validLogin, validCodes, validHeaders), "S3CR3T-plain-value", "S3CR3T-\xff\xfe-bad", 1), "", nil, false},
		{"clientIp unparsable", withField("clientIp", `"10.1.2.999-S3CR3T"`), "/clientIp", []string{"10.1.2.999"}, false},
		{"clientIp a number", withField("clientIp", pi), "/clientIp", []string{pi}, false},
		{"card unparsable", withField("card", `"4111-S3CR3T-card"`), "/card", []string{"4111-"}, false},
		{"card a number", withField("card", "4111111111111111"), "/card", nil, false},
		{"card too short", withField("card", `"41112222"`), "/card", []string{"41112222"}, false},
		{"login a number", withField("login", "918273645"), "/login", []string{"918273645"}, false},
		{"login an array", withField("login", `["S3CR3T-login-array"]`), "/login", nil, false},
		{"login a string that is not JSON", withField("login", `"S3CR3T-login-string"`), "/login", nil, false},
		{"login a string holding broken JSON", withField("login", jsonString(`{"password":"S3CR3T-broken`)), "/login", nil, false},
		{"login as a string, password a number", withField("login", jsonString(`{"username":"ada","password":`+pi+`}`)), "/login/password", []string{pi}, false},
		{"login as a string, server unparsable", withField("login", jsonString(`{"username":"ada","password":"S3CR3T-login-pw","server":"S3CR3T.example"}`)), "/login/server", nil, false},
		{"login password too short", withField("login", `{"username":"ada","password":"S3CR3T"}`), "/login/password", nil, false},
		{"login otp out of range", withField("login", `{"username":"ada","password":"S3CR3T-login-pw","otp":9182736450}`), "/login/otp", []string{"9182736450"}, false},
		{"login otp not an integer", withField("login", `{"username":"ada","password":"S3CR3T-login-pw","otp":9182.5}`), "/login/otp", []string{"9182.5"}, false},
		{"login server unparsable", withField("login", `{"username":"ada","password":"S3CR3T-login-pw","server":"192.0.2.777"}`), "/login/server", []string{"192.0.2.777"}, false},
		{"login unknown property named like a secret", withField("login", `{"username":"ada","password":"S3CR3T-login-pw","S3CR3T-as-name":1}`), "", nil, false},
		{"login username twice", withField("login", `{"username":"S3CR3T-user-1","username":"S3CR3T-user-2","password":"S3CR3T-login-pw"}`), "", nil, false},
		{"login missing password", withField("login", `{"username":"S3CR3T-user"}`), "/login/password", nil, false},
		{"recoveryCodes items wrong", withField("recoveryCodes", `["S3CR3T-rc-1",`+pi+`,"S3C"]`), "", []string{pi, "S3C"}, false},
		{"recoveryCodes too many", withField("recoveryCodes", `["S3CR3T-01","S3CR3T-02","S3CR3T-03","S3CR3T-04","S3CR3T-05","S3CR3T-06","S3CR3T-07","S3CR3T-08","S3CR3T-09","S3CR3T-10","S3CR3T-11"]`), "/recoveryCodes", nil, false},
		{"recoveryCodes a string not JSON", withField("recoveryCodes", `"S3CR3T-codes"`), "/recoveryCodes", nil, false},
		{"recoveryCodes as a string, item a number", withField("recoveryCodes", jsonString(`["S3CR3T-rc-1",`+pi+`]`)), "", []string{pi}, false},
		{"headers value a number", withField("headers", `{"X-Api-Key":`+pi+`}`), "", []string{pi}, false},
		{"headers value too long", withField("headers", `{"X-Api-Key":`+jsonString("S3CR3T"+strings.Repeat("y", 250))+`}`), "", nil, false},
		{"headers key is a secret", withField("headers", `{"S3CR3T-header-name":`+pi+`}`), "", []string{pi}, false},
		{"headers key is a secret, twice", withField("headers", `{"S3CR3T-dup-key":"a","S3CR3T-dup-key":"b"}`), "", nil, false},
		{"headers a number", withField("headers", pi), "/headers", []string{pi}, false},
		{"headers as a string, value an object", withField("headers", jsonString(`{"S3CR3T-k":{"S3CR3T-v":1}}`)), "", nil, false},
		{"secret twice", strings.Replace(validStore(validLogin, validCodes, validHeaders), `"secret":"S3CR3T-plain-value"`, `"secret":"S3CR3T-first","secret":"S3CR3T-second"`, 1), "/secret", nil, false},
		{"encoded twice, secret a number", jsonString(withField("secret", pi)), "/secret", []string{pi}, false},
		{"encoded twice, card unparsable", jsonString(withField("card", `"4111-S3CR3T-card"`)), "/card", []string{"4111-"}, false},
		{"encoded twice, login a string holding a bad password", jsonString(withField("login", jsonString(`{"username":"ada","password":`+pi+`}`))), "/login/password", []string{pi}, false},
		{"encoded three times", jsonString(jsonString(validStore(validLogin, validCodes, validHeaders))), "", nil, false},
		{"login encoded twice as a property", withField("login", jsonString(jsonString(validLogin))), "/login", nil, false},
		{"other property wrong, secrets valid", withField("name", `"Bad Name!"`), "/name", nil, false},
		{"syntax error right after a sensitive name", `{"name":"api","secret":S3CR3TBARE,"clientIp":"10.1.2.3"}`, "", nil, true},
		{"unterminated sensitive string", `{"name":"api","clientIp":"10.1.2.3","secret":"S3CR3T-unterminated`, "", nil, true},
		{"truncated after a sensitive value", `{"name":"api","secret":"S3CR3T-truncated","clientIp":"10.1.2.3"`, "", nil, true},
		{"sensitive value then garbage", `{"name":"api","secret":"S3CR3T-then-garbage"} trailing S3CR3T-trailing`, "", nil, true},
		{"arguments an array holding them", `[` + validStore(validLogin, validCodes, validHeaders) + `]`, "", nil, true},
		{"escaped property name, value a number", strings.Replace(validStore(validLogin, validCodes, validHeaders), `"secret":"S3CR3T-plain-value"`, `"\u0073ecret":`+pi, 1), "", []string{pi}, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := newCapture(t, true)
			res := callDone(t, c.tools, context.Background(), "put_secret", []byte(tc.args))
			if !res.IsError {
				if tc.name == "encoded three times" || tc.name == "login encoded twice as a property" || tc.name == "secret invalid UTF-8" {
					// Not a leniency the contract gives; but if it ran, nothing may leak.
					t.Logf("accepted: %s", clip(tc.args, 200))
				} else {
					t.Fatalf("invalid arguments accepted: %s", clip(tc.args, 300))
				}
			} else if res.Outcome != runtime.OutcomeInvalidArguments {
				t.Errorf("outcome %q, want %q", res.Outcome, runtime.OutcomeInvalidArguments)
			}
			if tc.path != "" && !strings.Contains(res.Text(), tc.path+":") {
				// Below a sensitive property the runtime may hide the names in the path
				// (/login/* for /login/password): conservative, and the model still
				// learns which sensitive property is wrong.
				masked := tc.path
				if i := strings.Index(tc.path[1:], "/"); i >= 0 {
					masked = tc.path[:i+1] + "/*"
				}
				if !strings.Contains(res.Text(), masked+":") {
					t.Errorf("the text does not name %s: %s", tc.path, clip(res.Text(), 600))
				} else {
					t.Logf("path shown as %s for %s: %s", masked, tc.path, res.Text())
				}
			}
			if tc.name == "other property wrong, secrets valid" && !strings.Contains(res.Text(), "Bad Name!") {
				t.Errorf("control: a non-sensitive value is not echoed: %s", res.Text())
			}
			if len(c.redacted) != 0 && res.IsError {
				t.Errorf("the approver saw an invalid call")
			}
			secrets := append(append([]string{}, validSecrets...), tc.secrets...)
			if tc.arguable {
				var leaks []string
				for _, s := range c.surfaces(t, "put_secret", []byte(tc.args), res, false) {
					for _, secret := range secrets {
						if strings.Contains(s.text, secret) {
							leaks = append(leaks, s.name+" leaks "+secret+": "+clip(s.text, 300))
						}
					}
				}
				if len(leaks) > 0 {
					if tc.name == "arguments an array holding them" {
						t.Errorf("arguments that are a JSON array holding the object are logged in clear by Redact (Event.Arguments, SlogObserver): %s", clip(strings.Join(leaks, "\n"), 1500))
					}
					t.Errorf("finding (the contract read broadly: %q in whatever form it arrived): %s", "a sensitive value must never appear", strings.Join(leaks, "\n"))
				}
				return
			}
			assertNoLeak(t, c.surfaces(t, "put_secret", []byte(tc.args), res, false), secrets...)
		})
	}
}

// TestSensitiveOtherTools (class 3): sensitive values of the other tools (a card of pay,
// the token of a panicking tool, the password a tool quotes in its own internal error)
// never reach the model; the tool's own error reaches the log whole, as the contract
// says, but its argument values are never in the events' Violations or Arguments.
func TestSensitiveOtherTools(t *testing.T) {
	t.Run("pay card unparsable", func(t *testing.T) {
		c := newCapture(t, true)
		args := `{"amount":12.5,"at":"2030-01-02T03:04:05Z","card":"4111-S3CR3T-card"}`
		res := callDone(t, c.tools, context.Background(), "pay", []byte(args))
		if !res.IsError || !strings.Contains(res.Text(), "/card") {
			t.Fatalf("got %v %s", res.IsError, res.Text())
		}
		assertNoLeak(t, c.surfaces(t, "pay", []byte(args), res, false), "S3CR3T", "4111-")
	})
	t.Run("pay valid", func(t *testing.T) {
		c := newCapture(t, true)
		args := `{"amount":12.5,"at":"2030-01-02T03:04:05Z","card":"4111 1111 1111 1234"}`
		res := callDone(t, c.tools, context.Background(), "pay", []byte(args))
		if res.IsError {
			t.Fatalf("refused: %s", res.Text())
		}
		assertNoLeak(t, c.surfaces(t, "pay", []byte(args), res, false), "4111 1111 1111 1234", "4111111111111234")
	})
	for _, kind := range []string{"string", "error", "nil", "index"} {
		t.Run("explode "+kind, func(t *testing.T) {
			c := newCapture(t, true)
			args := `{"kind":"` + kind + `","token":"S3CR3T-panic-token"}`
			res := callDone(t, c.tools, context.Background(), "explode", []byte(args))
			if !res.IsError || res.Outcome != runtime.OutcomeInternalError {
				t.Fatalf("got %v %q %s", res.IsError, res.Outcome, res.Text())
			}
			if res.Text() != "explode failed with an internal error" {
				t.Errorf("model text %q", res.Text())
			}
			if res.Err == nil {
				t.Errorf("Result.Err is nil: the log gets nothing of the panic")
			}
			assertNoLeak(t, c.surfaces(t, "explode", []byte(args), res, true), "S3CR3T")
		})
	}
	t.Run("connect_backend internal error quoting the password", func(t *testing.T) {
		c := newCapture(t, true)
		args := `{"backend":"primary","password":"S3CR3T-db-pw"}`
		res := callDone(t, c.tools, context.Background(), "connect_backend", []byte(args))
		if !res.IsError || res.Outcome != runtime.OutcomeInternalError {
			t.Fatalf("got %v %q %s", res.IsError, res.Outcome, res.Text())
		}
		if res.Text() != "connect_backend failed with an internal error" {
			t.Errorf("model text %q", res.Text())
		}
		if res.Err == nil || !strings.Contains(res.Err.Error(), "connection refused") {
			t.Errorf("Result.Err %v: want the whole error, for the log", res.Err)
		}
		if len(c.events) != 1 || c.events[0].Err == nil || c.events[0].Outcome != runtime.OutcomeInternalError {
			t.Errorf("events %+v", c.events)
		}
		// The tool's own error is the application's: the contract sends it whole to the
		// log. Everything else is checked.
		assertNoLeak(t, c.surfaces(t, "connect_backend", []byte(args), res, true), "S3CR3T")
	})
}

// TestRedactDirect (class 3b): runtime.Redact itself, on arguments that never went
// through a call, in every form.
func TestRedactDirect(t *testing.T) {
	tool, ok := VaultTools(NewVault()).Lookup("put_secret")
	if !ok {
		t.Fatal("no put_secret")
	}
	plain := validStore(validLogin, validCodes, validHeaders)
	for name, args := range map[string]string{
		"plain":                  plain,
		"twice":                  jsonString(plain),
		"three times":            jsonString(jsonString(plain)),
		"login as a string":      validStore(jsonString(validLogin), validCodes, validHeaders),
		"login as a string x2":   validStore(jsonString(jsonString(validLogin)), validCodes, validHeaders),
		"lists as strings":       validStore(validLogin, jsonString(validCodes), jsonString(validHeaders)),
		"escaped name":           strings.Replace(plain, `"secret"`, `"\u0073ecret"`, 1),
		"escaped nested name":    validStore(`{"username":"ada","p\u0061ssword":"S3CR3T-login-pw"}`, validCodes, validHeaders),
		"duplicate secret":       strings.Replace(plain, `"secret":"S3CR3T-plain-value"`, `"secret":"S3CR3T-a","secret":"S3CR3T-b"`, 1),
		"not JSON":               `{"secret":"S3CR3T-not-json",`,
		"number after secret":    `{"secret":31415926535}`,
		"array":                  `[` + plain + `]`,
		"invalid UTF-8":          strings.Replace(plain, "S3CR3T-plain-value", "S3CR3T-\xff", 1),
		"byte order mark":        "\ufeff" + plain,
		"secret object as value": `{"secret":{"x":"S3CR3T-obj"},"login":"S3CR3T-login-str"}`,
	} {
		t.Run(name, func(t *testing.T) {
			got := string(runtime.Redact(tool, []byte(args)))
			for _, secret := range append([]string{"31415926535"}, validSecrets...) {
				if strings.Contains(got, secret) {
					if name == "array" {
						t.Errorf("Redact echoes arguments that are an array holding the object unredacted: %s", clip(got, 600))
					}
					t.Errorf("Redact leaks %q: %s", secret, clip(got, 600))
				}
			}
		})
	}
}
