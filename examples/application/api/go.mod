module github.com/example/checkout/api

go 1.22
