module evaltask

go 1.18
