"""The standard rules, in the order a game applies them.

Every rules module describes what it adds to a game as a :class:`~.kernel.ruleset.Rule`; this list is the
standard rule set.  A game uses the rules that apply to its scenario and options (``Rule.applies``), in
this order: the order decides the order of the options a decision offers and of the hooks that run at
each point, so a new rule goes where the rulebook's sequence puts it.  A new rules area is one module with
its ``RULE`` plus one line here (docs/architecture.md shows a worked example).
"""
from __future__ import annotations

from .additional_rules import building_assault, buildings, casualty_evacuation, fire, fortifications, smoke
from .additional_rules import drones, electronic_warfare
from .additional_rules.mines_and_explosives import booby_traps, command_detonated, minefields
from .artillery_and_air_support import on_table_artillery
from .artillery_and_air_support import fire_missions, fire_support_request
from .aerospace_operations import air, anti_aircraft, cargo, flight, insertion, ordnance, passengers
from .armoured_dustup import (casevac_vehicle, close_assault, fire_by_vehicles, firing_at_vehicles, guided_weapons,
                              heavy_weapons, indicating_damaged_vehicles, open_top_and_soft_skinned_vehicles,
                              tank_shock, towing, transport, unguided_rockets, vehicle_movement, vehicles)
from .forces import cavalry, commanders, units
from .house_rules import close_combat
from .reactions_and_interrupts import interrupt, reactions
from .kernel import measurement
from .kernel.game import set_standard_rules
from .morale import death_of_a_leader, panic
from .rules_overview import inbound_chart, random_activation, seize_the_initiative, victory
from .unit_actions import (assault_action, communicate_action, detach_element_action, detect_action, encumbrance,
                           hidden_units, medical_treatment_action, move_action, moving_casualties, order_action,
                           prop_action, rally_action, recover_suppression_action, regroup_action, reorganise_action,
                           reorganise_placement, reorganise_tasks, shoot_action, travel_movement)

STANDARD = (
    measurement.RULE,  # the measure option
    units.RULE,  # builds the units (first: the random tables roll before anything else)
    victory.RULE,
    death_of_a_leader.RULE,
    panic.RULE,  # its option override comes before the commanders'
    commanders.RULE,
    # the actions, in the order a unit's options are listed
    recover_suppression_action.RULE,
    move_action.RULE,
    prop_action.RULE,
    reorganise_action.RULE,
    shoot_action.RULE,
    communicate_action.RULE,
    order_action.ORDER,
    rally_action.RULE,
    order_action.COMBINED_ASSAULT,
    assault_action.RULE,
    cavalry.RULE,
    detach_element_action.RULE,
    medical_treatment_action.RULE,
    moving_casualties.RULE,
    regroup_action.RULE,
    reorganise_tasks.RULE,
    travel_movement.RULE,
    hidden_units.RULE,
    detect_action.RULE,
    random_activation.RULE,
    seize_the_initiative.RULE,
    casualty_evacuation.RULE,
    reorganise_placement.RULE,
    encumbrance.RULE,
    inbound_chart.RULE,
    close_combat.RULE,
    heavy_weapons.RULE,  # Armoured Dustup (after the infantry rules: a game without heavy weapons is unchanged)
    unguided_rockets.RULE,
    guided_weapons.RULE,
    vehicles.RULE,
    vehicle_movement.RULE,
    transport.RULE,
    towing.RULE,
    indicating_damaged_vehicles.RULE,
    casevac_vehicle.RULE,
    firing_at_vehicles.RULE,
    fire_by_vehicles.RULE,
    open_top_and_soft_skinned_vehicles.RULE,
    close_assault.RULE,
    tank_shock.RULE,
    on_table_artillery.RULE,  # Artillery and Air Support (a game with no on-table artillery piece is unchanged)
    fire_support_request.RULE,  # Artillery and Air Support (only games whose sides have fire support)
    fire_missions.RULE,
    air.RULE,  # Aerospace Operations (after the vehicle rules: aircraft are vehicles)
    flight.RULE,
    anti_aircraft.RULE,
    passengers.RULE,
    ordnance.RULE,
    insertion.RULE,
    cargo.RULE,  # (only scenarios with cargo)
    fire.RULE,  # Additional Rules (only games with flame throwers, incendiary or smoke content)
    smoke.RULE,
    minefields.RULE,  # Additional Rules › Mines and Explosives (only games whose scenario places counters)
    command_detonated.RULE,
    booby_traps.RULE,
    buildings.RULE,  # Additional Rules: Buildings and Fortifications (only scenarios that give buildings an armour)
    fortifications.RULE,
    building_assault.RULE,  # seed 004's building assault (game option building_assault: "d20")
    electronic_warfare.RULE,  # Additional Rules (only games with EW units or small drones)
    drones.RULE,
    reactions.RULE,  # seed 001 reactions (game option reactions; after every rule of seed 000)
    interrupt.RULE,  # seed 004 interrupts (game option interrupt)
)

set_standard_rules(STANDARD)
