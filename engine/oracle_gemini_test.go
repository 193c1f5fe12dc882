package engine

func (c exCase) oracleCheck(up upstreamAnswer) string { return "" }
