-- TPC-H Q10, returned item reporting: four-table join, group-by, top 20.
SELECT c.c_custkey, c.c_name, round(sum(l.l_extendedprice * (1 - l.l_discount)), 2) AS revenue,
       c.c_acctbal, n.n_name, c.c_address, c.c_phone, c.c_comment
FROM tpch.customer c
JOIN tpch.orders o ON c.c_custkey = o.o_custkey
JOIN tpch.lineitem l ON l.l_orderkey = o.o_orderkey
JOIN tpch.nation n ON c.c_nationkey = n.n_nationkey
WHERE o.o_orderdate >= DATE '1993-10-01' AND o.o_orderdate < DATE '1994-01-01' AND l.l_returnflag = 'R'
GROUP BY c.c_custkey, c.c_name, c.c_acctbal, c.c_phone, n.n_name, c.c_address, c.c_comment
ORDER BY revenue DESC, c.c_custkey
LIMIT 20
