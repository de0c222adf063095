-- TPC-H Q18, large volume customer; the IN subquery becomes a join with the big orders.
SELECT c.c_name, c.c_custkey, o.o_orderkey, o.o_orderdate, o.o_totalprice, sum(l.l_quantity) AS total_qty
FROM tpch.customer c
JOIN tpch.orders o ON c.c_custkey = o.o_custkey
JOIN (SELECT l_orderkey AS big_orderkey FROM tpch.lineitem GROUP BY l_orderkey HAVING sum(l_quantity) > 300) big
  ON o.o_orderkey = big.big_orderkey
JOIN tpch.lineitem l ON o.o_orderkey = l.l_orderkey
GROUP BY c.c_name, c.c_custkey, o.o_orderkey, o.o_orderdate, o.o_totalprice
ORDER BY o.o_totalprice DESC, o.o_orderdate, o.o_orderkey
LIMIT 100
