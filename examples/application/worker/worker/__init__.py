"""Payment capture worker."""
