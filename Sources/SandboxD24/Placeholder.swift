// placeholder until the dialect lands
