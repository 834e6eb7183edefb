module evaltask

go 1.21
