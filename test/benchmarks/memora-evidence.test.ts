import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  collectSessionRefs,
  evidenceFacts,
  parseSessionRef,
  questionKind,
  questionTemplate,
  sessionIdOf,
} from "../../src/benchmarks/memora/index.ts";

describe("memora session references", () => {
  it("reads every spelling of a session number and rejects the rest", () => {
    const cases: Array<[unknown, number | undefined]> = [
      [3, 3],
      ["3", 3],
      [" 12 ", 12],
      ["session_0003", 3],
      ["session_3", 3],
      ["Session0042", 42],
      [0, 0],
      [-1, undefined],
      [2.5, undefined],
      ["abc", undefined],
      ["session_", undefined],
      [null, undefined],
      [{ session_id: 3 }, undefined],
    ];
    for (const [input, expected] of cases) assert.equal(parseSessionRef(input), expected, JSON.stringify(input));
  });

  it("names sessions like the release's files", () => {
    assert.equal(sessionIdOf(3), "session_0003");
    assert.equal(sessionIdOf(1991), "session_1991");
    assert.equal(sessionIdOf(12345), "session_12345");
  });

  it("finds session_id at any depth, session_history lists, and nothing in day-keyed maps", () => {
    const evidence = {
      max_period: 2,
      period_breakdown: {
        "1": { total_steps: 20, items: [{ activity_type: "daily_steps", step_count: 20, session_id: 13 }] },
        "2": { total_steps: 30, items: [{ step_count: 30, session_id: "session_0178" }] },
      },
      // Keyed by day of the period, not by session (spec §3.2 says otherwise; the generator and data agree on days).
      budget_timeline: { "1": 45, "8": 40 },
      goal_session: null,
      content: { session_history: [10, "72", 10] },
    };
    assert.deepEqual(collectSessionRefs(evidence, "memory_evidence"), { refs: [10, 13, 72, 178], bad: [] });
  });

  it("reports unreadable references with their path and skips null ones", () => {
    const { refs, bad } = collectSessionRefs(
      { forgotten_items: [{ value: "x", session_id: "later" }, { session_id: null }, { session_id: 7 }] },
      "forgetting_evidence",
    );
    assert.deepEqual(refs, [7]);
    assert.deepEqual(bad, [{ path: "forgetting_evidence.forgotten_items[0].session_id", value: "later" }]);
  });

  it("has nothing to collect from absent evidence", () => {
    assert.deepEqual(collectSessionRefs(undefined), { refs: [], bad: [] });
    assert.deepEqual(collectSessionRefs(null), { refs: [], bad: [] });
  });
});

describe("memora evidence facts", () => {
  it("lists todo and calendar values, and nothing for calendar items the release left without a value", () => {
    assert.deepEqual(evidenceFacts({ remaining_tasks: [{ value: "Water the ferns", session_id: 4 }], task_count: 1 }), [
      "Water the ferns",
    ]);
    assert.deepEqual(evidenceFacts({ forgotten_items: [{ session_id: 9 }, { session_id: 9 }] }), []);
  });

  it("lists each document field value, one line per list element", () => {
    const facts = evidenceFacts({
      content_data: {
        email_purpose: "Ask for the loan forms",
        recipient_list: ["Registrar", "Archive desk"],
        budget: 900,
      },
      session_history: [1, 2],
    });
    assert.deepEqual(facts, [
      "email purpose: Ask for the loan forms",
      "recipient list: Registrar",
      "recipient list: Archive desk",
      "budget: 900",
    ]);
  });

  it("keeps polarity and subcategory of preferences, without repeating specific_items", () => {
    assert.deepEqual(
      evidenceFacts({
        memory_items: {
          genres: { likes: [{ item: "film noir", session_id: 3 }], dislikes: [{ item: "musicals", session_id: 5 }] },
          actors: { likes: [], dislikes: [] },
        },
      }),
      ["likes film noir (genres)", "dislikes musicals (genres)"],
    );
    assert.deepEqual(
      evidenceFacts({
        subcategory_data: { likes: [{ item: "film noir", session_id: 3 }], dislikes: ["musicals"] },
        likes_count: 1,
        specific_items: [{ item: "film noir", session_id: 3 }],
      }),
      ["likes film noir", "dislikes musicals"],
    );
  });

  it("keeps equal log entries from different sessions and drops repeats of one session's entry", () => {
    const expense = (session_id: number) => ({ expense_type: "coffee", amount: 3.5, session_id });
    assert.deepEqual(
      evidenceFacts({
        food_expenses: [expense(2), expense(6)],
        period_breakdown: { "1": { items: [expense(2)] } },
        step_data: [{ activity_type: "daily_steps", step_count: 8123, session_id: 7 }],
      }),
      ["coffee expense: 3.5", "coffee expense: 3.5", "daily steps: 8123"],
    );
  });

  it("states a goal from goal_data and names removed document fields", () => {
    assert.deepEqual(
      evidenceFacts({
        goal_value: 8000,
        goal_data: { category: "step_tracker", subcategory: "daily_steps", value: 8000 },
        goal_session: { session_id: 16, session_date: "2025-06-01" },
      }),
      ["daily steps goal: 8000"],
    );
    assert.deepEqual(
      evidenceFacts({ forgotten_items: [{ field: "stakeholders", value: "QA team", session_id: 72 }] }),
      ["stakeholders: QA team"],
    );
  });
});

describe("memora question templates", () => {
  it("reads the question type, category and template off every generator id pattern", () => {
    const cases: Array<[string, string, string, string]> = [
      ["activity_todos_163", "activity_status", "todo_list", "activity_todos"],
      ["activity_calendar_628", "activity_status", "calendar_event", "activity_calendar"],
      [
        "content_project_proposal_1991_project_proposal_3",
        "content_regeneration",
        "project_proposal",
        "content_project_proposal",
      ],
      [
        "content_social_media_post_150_social_media_post_1",
        "content_regeneration",
        "social_media_post",
        "content_social_media_post",
      ],
      ["activity_food_total_628", "activity_aggregation", "food_expenses", "activity_food_total"],
      ["activity_food_dinner_2011", "activity_aggregation", "food_expenses", "activity_food_dinner"],
      ["activity_steps_total_163", "activity_aggregation", "step_tracker", "activity_steps_total"],
      ["goal_food_expenses_lunch_150_1", "goal_progress_analysis", "food_expenses", "goal_food_expenses_lunch"],
      [
        "goal_step_tracker_daily_steps_163_0",
        "goal_progress_analysis",
        "step_tracker",
        "goal_step_tracker_daily_steps",
      ],
      [
        "comparative_steps_max_month_1991",
        "temporal_comparative_analysis",
        "step_tracker",
        "comparative_steps_max_month",
      ],
      [
        "comparative_coffee_max_week_628",
        "temporal_comparative_analysis",
        "food_expenses",
        "comparative_coffee_max_week",
      ],
      [
        "comparative_goal_met_coffee_week_628",
        "temporal_goal_analysis",
        "food_expenses",
        "comparative_goal_met_coffee_week",
      ],
      [
        "comparative_goal_exceeded_breakfast_month_1991",
        "temporal_goal_analysis",
        "food_expenses",
        "comparative_goal_exceeded_breakfast_month",
      ],
      ["pref_music_decades_1991", "preference_based_recommendation", "music", "pref_music_decades"],
      [
        "pref_travel_destination_types_628",
        "preference_based_recommendation",
        "travel",
        "pref_travel_destination_types",
      ],
    ];
    for (const [id, subtype, category, template] of cases) {
      assert.deepEqual(questionKind(id), { subtype, category }, id);
      assert.equal(questionTemplate(id), template, id);
    }
  });

  it("knows nothing of ids outside the templates", () => {
    assert.equal(questionKind("my_question"), undefined);
    assert.equal(questionKind("pref_movies_general"), undefined);
    assert.equal(questionTemplate("my_question"), undefined);
  });
});
