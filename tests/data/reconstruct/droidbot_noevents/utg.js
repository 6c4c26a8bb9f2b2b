var utg = 
{
  "app_package": "org.example.shoplist",
  "num_nodes": 5,
  "num_edges": 4,
  "nodes": [
    {
      "id": "aaaa0002",
      "state_str": "aaaa0002"
    },
    {
      "id": "aaaa0005",
      "state_str": "aaaa0005"
    },
    {
      "id": "aaaa0004",
      "state_str": "aaaa0004"
    },
    {
      "id": "aaaa0003",
      "state_str": "aaaa0003"
    },
    {
      "id": "aaaa0001",
      "state_str": "aaaa0001"
    }
  ],
  "edges": [
    {
      "from": "aaaa0001",
      "to": "aaaa0002",
      "id": "aaaa0001-->aaaa0002",
      "events": [
        {
          "event_id": 1,
          "event_type": "touch",
          "event_str": "TouchEvent(view=00000000000000003e0e3d03d563097c)"
        }
      ]
    },
    {
      "from": "aaaa0001",
      "to": "aaaa0003",
      "id": "aaaa0001-->aaaa0003",
      "events": [
        {
          "event_id": 5,
          "event_type": "touch",
          "event_str": "TouchEvent(view=000000000000000067a1fa32414c8f2b)"
        }
      ]
    },
    {
      "from": "aaaa0004",
      "to": "aaaa0005",
      "id": "aaaa0004-->aaaa0005",
      "events": [
        {
          "event_id": 7,
          "event_type": "touch",
          "event_str": "TouchEvent(view=0000000000000000209c460a40e5591e)"
        }
      ]
    },
    {
      "from": "aaaa0003",
      "to": "aaaa0004",
      "id": "aaaa0003-->aaaa0004",
      "events": [
        {
          "event_id": 6,
          "event_type": "touch",
          "event_str": "TouchEvent(view=00000000000000002c69b6b8635ec184)"
        }
      ]
    }
  ]
}