package catalog

// The embedded tables under data/ are generated; see the package documentation ("Regenerating").

//go:generate go run ./gen -sources ../../sources -out data
