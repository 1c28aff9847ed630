// Package validatorrules holds the names of the rules go-playground/validator knows
// without registration, for the parser's did-you-mean on validate tags, and for
// interop/validator, which checks them against the validator itself.
package validatorrules

// Names are the rules go-playground/validator v10.30.6 knows without registration: its
// baked-in validators and aliases and the tags it reads itself (omitempty, dive, keys,
// ...). A rule that is none of them but is near a rule toolgen reads is taken for a
// typo of that one (see the parser's validateItems).
var Names = []string{
	"alpha", "alphanum", "alphanumspace", "alphanumunicode", "alphaspace", "alphaunicode",
	"ascii", "base32", "base64", "base64rawurl", "base64url", "bcp47_language_tag",
	"bcp47_strict_language_tag", "bic", "bic_iso_9362_2014", "boolean", "btc_addr", "btc_addr_bech32",
	"cidr", "cidrv4", "cidrv6", "cmyk", "contains", "containsany",
	"containsrune", "country_code", "credit_card", "cron", "cve", "datauri",
	"datetime", "dir", "dirpath", "dive", "dns_rfc1035_label", "duration",
	"e164", "ein", "email", "endkeys", "endsnotwith", "endswith",
	"eq", "eq_ignore_case", "eqcsfield", "eqfield", "eth_addr", "eth_addr_checksum",
	"eu_country_code", "excluded_if", "excluded_unless", "excluded_with", "excluded_with_all", "excluded_without",
	"excluded_without_all", "excludes", "excludesall", "excludesrune", "fieldcontains", "fieldexcludes",
	"file", "filepath", "fqdn", "gt", "gtcsfield", "gte",
	"gtecsfield", "gtefield", "gtfield", "hexadecimal", "hexcolor", "hostname",
	"hostname_label", "hostname_port", "hostname_rfc1123", "hsl", "hsla", "html",
	"html_encoded", "http_url", "https_url", "image", "ip", "ip4_addr",
	"ip6_addr", "ip_addr", "ipv4", "ipv6", "isbn", "isbn10",
	"isbn13", "iscolor", "isdefault", "iso3166_1_alpha2", "iso3166_1_alpha2_eu", "iso3166_1_alpha3",
	"iso3166_1_alpha3_eu", "iso3166_1_alpha_numeric", "iso3166_1_alpha_numeric_eu", "iso3166_2", "iso4217", "iso4217_numeric",
	"issn", "json", "jwt", "keys", "latitude", "len",
	"longitude", "lowercase", "lt", "ltcsfield", "lte", "ltecsfield",
	"ltefield", "ltfield", "luhn_checksum", "mac", "max", "md4",
	"md5", "mimetype", "min", "mongodb", "mongodb_connection_string", "multibyte",
	"ne", "ne_ignore_case", "necsfield", "nefield", "noneof", "noneofci",
	"nostructlevel", "number", "numeric", "omitempty", "omitnil", "omitzero",
	"oneof", "oneofci", "origin", "port", "postcode_iso3166_alpha2", "postcode_iso3166_alpha2_field",
	"printascii", "required", "required_if", "required_unless", "required_with", "required_with_all",
	"required_without", "required_without_all", "rgb", "rgba", "ripemd128", "ripemd160",
	"semver", "sha256", "sha384", "sha512", "skip_unless", "spicedb",
	"ssn", "startsnotwith", "startswith", "structonly", "tcp4_addr", "tcp6_addr",
	"tcp_addr", "tiger128", "tiger160", "tiger192", "timezone", "udp4_addr",
	"udp6_addr", "udp_addr", "uds_exists", "ulid", "unique", "unix_addr",
	"uppercase", "uri", "url", "url_encoded", "urn_rfc2141", "urn_rfc8141",
	"uuid", "uuid3", "uuid3_rfc4122", "uuid4", "uuid4_rfc4122", "uuid5",
	"uuid5_rfc4122", "uuid7", "uuid_rfc4122", "validateFn",
}
