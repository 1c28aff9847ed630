//go:build ignore

// recentdelete shows, over six rounds, why creating a package's toolschema/ right after removing the last
// one is slow on ext4 without a journal: each round creates 5,000 files of 1,100 bytes
// in a new directory under base, then either removes that directory (rm) or renames it
// into base/aside (mv) before the next round, and prints the wall and CPU time
// (user+sys) of the creates. With rm, each create makes the kernel skip every inode of
// the block group freed within the last 60 s (360 s if its block is still dirty):
// find_inode_bit's recently_deleted (fs/ext4/ialloc.c), which only runs without a
// journal.
//
//	go run recentdelete.go /path/on/the/disk/to/measure rm
//	go run recentdelete.go /path/on/the/disk/to/measure mv
package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
	"time"
)

func cpu() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func main() {
	base, mode := os.Args[1], os.Args[2]
	buf := make([]byte, 1100)
	if err := os.MkdirAll(filepath.Join(base, "aside"), 0o755); err != nil {
		panic(err)
	}
	for r := 0; r < 6; r++ {
		dir := filepath.Join(base, "toolschema")
		if err := os.Mkdir(dir, 0o755); err != nil {
			panic(err)
		}
		t, c := time.Now(), cpu()
		for i := 0; i < 5000; i++ {
			f, err := os.OpenFile(filepath.Join(dir, "tool_"+strconv.Itoa(i)+".json"), os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644)
			if err != nil {
				panic(err)
			}
			f.Write(buf)
			f.Close()
		}
		fmt.Printf("mode=%s round=%d wall=%v cpu=%v\n", mode, r, time.Since(t).Round(time.Millisecond), (cpu() - c).Round(time.Millisecond))
		if mode == "rm" {
			err := os.RemoveAll(dir)
			if err != nil {
				panic(err)
			}
		} else if err := os.Rename(dir, filepath.Join(base, "aside", strconv.Itoa(r))); err != nil {
			panic(err)
		}
	}
}
