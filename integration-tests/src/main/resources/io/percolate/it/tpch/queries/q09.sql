-- TPC-H Q9, product type profit measure: a six-table join, group-by, order-by.
SELECT nation, o_year, round(sum(amount), 2) AS sum_profit
FROM (
  SELECT n.n_name AS nation, year(o.o_orderdate) AS o_year,
         l.l_extendedprice * (1 - l.l_discount) - ps.ps_supplycost * l.l_quantity AS amount
  FROM tpch.part p
  JOIN tpch.lineitem l ON p.p_partkey = l.l_partkey
  JOIN tpch.supplier s ON s.s_suppkey = l.l_suppkey
  JOIN tpch.partsupp ps ON ps.ps_suppkey = l.l_suppkey AND ps.ps_partkey = l.l_partkey
  JOIN tpch.orders o ON o.o_orderkey = l.l_orderkey
  JOIN tpch.nation n ON s.s_nationkey = n.n_nationkey
  WHERE p.p_name LIKE '%green%'
) profit
GROUP BY nation, o_year
ORDER BY nation, o_year DESC
