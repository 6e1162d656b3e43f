module example.com/interop

go 1.19
