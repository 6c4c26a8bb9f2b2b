var utg = 
{
  "app_package": "org.example.shoplist",
  "app_main_activity": "org.example.shoplist.ListActivity",
  "num_nodes": 5,
  "num_edges": 6,
  "nodes": [
    {
      "id": "aaaa0001",
      "state_str": "aaaa0001",
      "activity": ".ListActivity",
      "package": "org.example.shoplist"
    },
    {
      "id": "aaaa0002",
      "state_str": "aaaa0002",
      "activity": ".EditActivity",
      "package": "org.example.shoplist"
    },
    {
      "id": "aaaa0003",
      "state_str": "aaaa0003",
      "activity": ".EditActivity",
      "package": "o