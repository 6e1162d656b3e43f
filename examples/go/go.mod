module example.com/gofuzz

go 1.19
