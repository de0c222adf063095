-- TPC-H Q8, national market share: an eight-table join.
SELECT o_year, round(sum(CASE WHEN nation = 'BRAZIL' THEN volume ELSE 0 END) / sum(volume), 4) AS mkt_share
FROM (
  SELECT year(o.o_orderdate) AS o_year, l.l_extendedprice * (1 - l.l_discount) AS volume, n2.n_name AS nation
  FROM tpch.part p
  JOIN tpch.lineitem l ON p.p_partkey = l.l_partkey
  JOIN tpch.supplier s ON s.s_suppkey = l.l_suppkey
  JOIN tpch.orders o ON l.l_orderkey = o.o_orderkey
  JOIN tpch.customer c ON o.o_custkey = c.c_custkey
  JOIN tpch.nation n1 ON c.c_nationkey = n1.n_nationkey
  JOIN tpch.region r ON n1.n_regionkey = r.r_regionkey
  JOIN tpch.nation n2 ON s.s_nationkey = n2.n_nationkey
  WHERE r.r_name = 'AMERICA' AND o.o_orderdate BETWEEN DATE '1995-01-01' AND DATE '1996-12-31'
    AND p.p_type = 'ECONOMY ANODIZED STEEL'
) all_nations
GROUP BY o_year
ORDER BY o_year
