package cases

import "fmt"

// ContentHash hashes the files of a case directory as Load does for
// Case.Hash (the files scanTree lists, then hashFiles): the relative slash
// paths of its regular files in sorted order, each with its size and bytes.
// The result is "sha256:<hex>" and does not depend on where the corpus is
// checked out. Directories hold nothing a reader uses, so only their files
// count; any other entry (a symbolic link, hard link, device, pipe or socket,
// which no reader accepts) makes hashing fail, as does dir itself being a
// link.
func ContentHash(dir string) (string, error) {
	files, errs := scanTree(dir)
	if len(errs) > 0 {
		return "", fmt.Errorf("hash %s: %w", dir, errs[0])
	}
	return hashFiles(dir, files)
}
