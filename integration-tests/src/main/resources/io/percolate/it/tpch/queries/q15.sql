-- TPC-H Q15, top supplier; the view is inlined twice and revenue compared rounded to cents,
-- so both sides match exactly whatever order the sums ran in.
SELECT s.s_suppkey, s.s_name, s.s_address, s.s_phone, r.total_revenue
FROM tpch.supplier s
JOIN (SELECT l_suppkey AS supplier_no, round(sum(l_extendedprice * (1 - l_discount)), 2) AS total_revenue
      FROM tpch.lineitem
      WHERE l_shipdate >= DATE '1996-01-01' AND l_shipdate < DATE '1996-04-01'
      GROUP BY l_suppkey) r ON s.s_suppkey = r.supplier_no
JOIN (SELECT max(total_revenue) AS max_revenue
      FROM (SELECT round(sum(l_extendedprice * (1 - l_discount)), 2) AS total_revenue
            FROM tpch.lineitem
            WHERE l_shipdate >= DATE '1996-01-01' AND l_shipdate < DATE '1996-04-01'
            GROUP BY l_suppkey) revenue) top ON r.total_revenue = top.max_revenue
ORDER BY s.s_suppkey
