package parser

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// Result budgets (the budget= tool option), in bytes: the runtime's MinResultBytes,
// and a bound that keeps every budget an int on any platform.
const (
	minBudgetBytes = 256
	maxBudgetBytes = 1 << 30
)

// sizeUnits are the units of a size, longest suffix first: binary (KiB, MiB) and
// decimal (KB, MB), in any case.
var sizeUnits = []struct {
	suffix string
	bytes  int64
}{
	{"kib", 1 << 10}, {"mib", 1 << 20}, {"gib", 1 << 30},
	{"kb", 1000}, {"mb", 1000 * 1000}, {"gb", 1000 * 1000 * 1000},
	{"b", 1},
}

// parseSize reads a budget= value: a whole number of bytes with an optional unit
// ("16KiB", "64KB", "1MiB", "4096", "512B"), from minBudgetBytes to maxBudgetBytes.
func parseSize(v string) (int, error) {
	num, unit := v, int64(1)
	lower := strings.ToLower(v)
	for _, u := range sizeUnits {
		if strings.HasSuffix(lower, u.suffix) {
			num, unit = v[:len(v)-len(u.suffix)], u.bytes
			break
		}
	}
	const want = "want a whole number of bytes with an optional unit, such as 16KiB, 64KB, 1MiB or 4096 (units B, KB, MB, GB, KiB, MiB, GiB)"
	if num == "" || strings.TrimLeft(num, "0123456789") != "" {
		return 0, errors.New(want)
	}
	n, err := strconv.ParseInt(num, 10, 64)
	if err != nil || n > maxBudgetBytes/unit {
		return 0, errors.New("must be at most 1GiB")
	}
	if n *= unit; n < minBudgetBytes {
		return 0, fmt.Errorf("must be at least %dB, room for the truncation marker", minBudgetBytes)
	}
	return int(n), nil
}
