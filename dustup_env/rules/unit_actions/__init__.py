"""Seed 000 "UNIT ACTIONS": move, prop, shoot, assault, recover suppression, reorganise, communicate, order,
rally, detach element, medical treatment, regroup and detect actions (with hidden units)."""
