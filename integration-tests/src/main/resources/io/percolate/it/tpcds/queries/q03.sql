-- TPC-DS query 3 (brands of one manufacturer's items sold in November, by year), in our HiveQL:
-- the comma joins written as JOIN ... ON; parameters as the specification's qualification values.
SELECT dt.d_year, i.i_brand_id AS brand_id, i.i_brand AS brand, sum(ss.ss_ext_sales_price) AS sum_agg
FROM tpcds.date_dim dt
JOIN tpcds.store_sales ss ON dt.d_date_sk = ss.ss_sold_date_sk
JOIN tpcds.item i ON ss.ss_item_sk = i.i_item_sk
WHERE i.i_manufact_id = 128 AND dt.d_moy = 11
GROUP BY dt.d_year, i.i_brand, i.i_brand_id
ORDER BY dt.d_year, sum_agg DESC, brand_id
LIMIT 100
