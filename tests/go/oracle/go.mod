module example.com/oracle

go 1.19
