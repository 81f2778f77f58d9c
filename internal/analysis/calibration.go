package analysis

import (
	"math"
	"slices"
)

// Empirical difficulty thresholds on a task's pass rate: above EasyAbove is
// easy, below HardBelow is hard, anything in between (inclusive) medium.
const (
	EasyAbove = 0.8
	HardBelow = 0.4
)

// EmpiricalDifficulty labels a pass rate easy (> 80%), medium (40-80%) or
// hard (< 40%).
func EmpiricalDifficulty(passRate float64) string {
	switch {
	case passRate > EasyAbove:
		return "easy"
	case passRate < HardBelow:
		return "hard"
	}
	return "medium"
}

// CaseCalibration is the IRT-style calibration of one task across models.
type CaseCalibration struct {
	TaskKey
	Category string `json:"category"`
	// Difficulty is the assigned label from metadata.yaml; Empirical is the
	// label the pass rate gives.
	Difficulty string `json:"difficulty"`
	Empirical  string `json:"empirical_difficulty"`
	// Models counts the models with judged samples of the task.
	Models int `json:"models"`
	// PassRate is the mean over those models of their share of passed
	// samples; PerModel holds each model's share.
	PassRate float64            `json:"pass_rate"`
	PerModel map[string]float64 `json:"per_model"`
	// B (difficulty) is 1 - PassRate; A (discrimination) is the population
	// standard deviation of the per-model shares.
	B float64 `json:"b"`
	A float64 `json:"a"`
	// Mislabelled is set when Difficulty is easy, medium or hard and differs
	// from Empirical. Floor: every model failed every sample (broken or too
	// hard); Ceiling: every model passed every sample (too easy).
	Mislabelled bool `json:"mislabelled"`
	Floor       bool `json:"floor"`
	Ceiling     bool `json:"ceiling"`
}

// Calibration is the calibration of every scored task with judged samples,
// sorted by task, with counts of the flags.
type Calibration struct {
	Models      []string          `json:"models"`
	Cases       []CaseCalibration `json:"cases"`
	Mislabelled int               `json:"mislabelled"`
	Floor       int               `json:"floor"`
	Ceiling     int               `json:"ceiling"`
}

func (c *Collector) calibration(models []string) Calibration {
	cal := Calibration{Models: models, Cases: []CaseCalibration{}}
	byTask := map[TaskKey]*CaseCalibration{}
	var order []TaskKey
	for _, name := range models {
		ma := c.models[name]
		for _, k := range ma.sortedTasks(true) {
			t := ma.tasks[k]
			if t.n == 0 {
				continue
			}
			cc := byTask[k]
			if cc == nil {
				cc = &CaseCalibration{TaskKey: k, Category: t.info.category, Difficulty: t.info.difficulty,
					PerModel: map[string]float64{}, Floor: true, Ceiling: true}
				byTask[k] = cc
				order = append(order, k)
			}
			cc.PerModel[name] = float64(t.c) / float64(t.n)
			cc.Floor = cc.Floor && t.c == 0
			cc.Ceiling = cc.Ceiling && t.c == t.n
		}
	}
	slices.SortFunc(order, CompareTasks)
	for _, k := range order {
		cc := byTask[k]
		cc.Models = len(cc.PerModel)
		// Sum in model order so the result does not depend on map order.
		sum := 0.0
		for _, m := range models {
			if v, ok := cc.PerModel[m]; ok {
				sum += v
			}
		}
		cc.PassRate = sum / float64(cc.Models)
		ss := 0.0
		for _, m := range models {
			if v, ok := cc.PerModel[m]; ok {
				ss += (v - cc.PassRate) * (v - cc.PassRate)
			}
		}
		cc.A = math.Sqrt(ss / float64(cc.Models))
		cc.B = 1 - cc.PassRate
		cc.Empirical = EmpiricalDifficulty(cc.PassRate)
		switch cc.Difficulty {
		case "easy", "medium", "hard":
			cc.Mislabelled = cc.Difficulty != cc.Empirical
		}
		if cc.Mislabelled {
			cal.Mislabelled++
		}
		if cc.Floor {
			cal.Floor++
		}
		if cc.Ceiling {
			cal.Ceiling++
		}
		cal.Cases = append(cal.Cases, *cc)
	}
	return cal
}
